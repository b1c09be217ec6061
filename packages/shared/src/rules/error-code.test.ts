import { describe, expect, it } from 'vitest';
import { errorCode } from './error-code.ts';

describe('Error code: "\'Error Code: 400-{request id}\' (or Unknown)"', () => {
  it.each([
    { requestId: 'req-7f3a9c', text: 'Error Code: 400-req-7f3a9c' },
    { requestId: ' req-7f3a9c ', text: 'Error Code: 400-req-7f3a9c' },
    { requestId: undefined, text: 'Error Code: 400-Unknown' },
    { requestId: null, text: 'Error Code: 400-Unknown' },
    { requestId: '', text: 'Error Code: 400-Unknown' },
    { requestId: '   ', text: 'Error Code: 400-Unknown' },
  ])('shows "$text" for request id $requestId', ({ requestId, text }) => {
    expect(errorCode(requestId)).toBe(text);
  });
});

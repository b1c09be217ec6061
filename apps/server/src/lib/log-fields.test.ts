import { describe, expect, it } from 'vitest';
import { loggableUrl } from './log-fields.ts';

describe('request URLs in logs', () => {
  it('keep the path and ids, numbers and keywords, and hide any other query value', () => {
    expect(loggableUrl('/api/v1/enquiries/01a2b3c4-0000-7000-8000-000000000001/messages')).toBe(
      '/api/v1/enquiries/01a2b3c4-0000-7000-8000-000000000001/messages',
    );
    expect(
      loggableUrl(
        '/api/v1/enquiries?location_id=01a2b3c4-0000-7000-8000-000000000001&page=2&status=open&search=Jane%20Citizen',
      ),
    ).toBe('/api/v1/enquiries?location_id=01a2b3c4-0000-7000-8000-000000000001&page=2&status=open&search=…');
    expect(loggableUrl('/api/v1/customers?phone=%2B61491570123&email=jane%40example.com')).toBe(
      '/api/v1/customers?phone=…&email=…',
    );
    expect(loggableUrl('/auth/unlock?token=eyJhbGciOiJIUzI1NiJ9.abc.def')).toBe('/auth/unlock?token=…');
  });
});

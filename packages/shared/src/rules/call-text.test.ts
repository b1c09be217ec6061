import { describe, expect, it } from 'vitest';
import { callText } from './call-text.ts';

const sam = { id: 'u1', full_name: 'Sam Nguyen' };

describe('callText', () => {
  it.each([
    [{ direction: 'in', status: 'ringing', duration: null, voicemail: false, user: null }, 'Incoming call'],
    [
      { direction: 'in', status: 'in-progress', duration: null, voicemail: false, user: sam },
      'Call in progress',
    ],
    [
      { direction: 'in', status: 'completed', duration: 125, voicemail: false, user: sam },
      'Call (02:05) answered by Sam',
    ],
    [{ direction: 'in', status: 'completed', duration: 30, voicemail: false, user: null }, 'Missed call'],
    [{ direction: 'in', status: 'no-answer', duration: null, voicemail: false, user: null }, 'Missed call'],
    [
      { direction: 'in', status: 'completed', duration: 42, voicemail: true, user: null },
      'Voicemail (00:42)',
    ],
    [{ direction: 'out', status: 'ringing', duration: null, voicemail: false, user: sam }, 'Calling…'],
    [
      { direction: 'out', status: 'completed', duration: 61, voicemail: false, user: sam },
      'Outgoing call (01:01)',
    ],
    [
      { direction: 'out', status: 'busy', duration: null, voicemail: false, user: sam },
      'Outgoing call: busy',
    ],
    [
      { direction: 'out', status: 'no-answer', duration: null, voicemail: false, user: sam },
      'Outgoing call: no answer',
    ],
    [
      { direction: 'out', status: 'failed', duration: null, voicemail: false, user: sam },
      'Outgoing call failed',
    ],
  ] as const)('%o reads %s', (call, text) => {
    expect(callText(call)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { auditText } from './audit-text.ts';

describe('audit log lines in words', () => {
  it.each([
    ['console', 'Came in from the Switchboard admin console.'],
    ['switch', 'Came in by switching to this business.'],
    ['login', 'Came in when signing in.'],
  ])('an administrator coming in (%s)', (how, detail) => {
    expect(auditText('admin.business.open', { how })).toEqual({
      what: 'Switchboard administrator entered the business',
      detail,
    });
  });

  it('an administrator coming in before the way in was recorded', () => {
    expect(auditText('admin.business.open', null).detail).toBe('Came in from the Switchboard admin console.');
  });

  it('a channel another business proved is theirs', () => {
    expect(auditText('channel.displaced', { provider: 'twilio', address: '+61491570300' })).toEqual({
      what: 'Channel disconnected',
      detail:
        'Another business showed Twilio that +61491570300 is theirs. Check the account under Channels & forms.',
    });
  });

  it('a US number’s carrier registration an administrator recorded', () => {
    expect(
      auditText('admin.number.registration', {
        phone_number: '+14155550101',
        from: 'pending',
        to: 'approved',
      }),
    ).toEqual({
      what: 'Switchboard administrator recorded a number’s carrier registration',
      detail: '+14155550101: registered with US carriers.',
    });
    expect(auditText('admin.number.registration', { to: 'later' }).detail).toBe('A number: changed.');
  });

  it('every other line keeps its action and detail', () => {
    expect(auditText('location.create', { name: 'Docklands' })).toEqual({
      what: 'location create',
      detail: '{"name":"Docklands"}',
    });
    expect(auditText('tracking_number.added', { n: 'x'.repeat(200) }).detail).toHaveLength(160);
  });
});

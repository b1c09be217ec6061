import { describe, expect, it } from 'vitest';
import { setBusinessCountry } from '../../../lib/locale.ts';
import { continuesRun, customerLabel, formatListTime, initials, peopleSentence } from './format.ts';

describe('customerLabel', () => {
  it('prefers the name, then the phone, then the email', () => {
    expect(customerLabel({ name: 'Ava Chen', phone: '+61400000000', email: null })).toBe('Ava Chen');
    // A number written as dialled: at home for the business's country, else internationally.
    expect(customerLabel({ name: '  ', phone: '+61412345678', email: 'a@b.co' })).toBe('+61 412 345 678');
    setBusinessCountry('AU');
    expect(customerLabel({ name: '  ', phone: '+61412345678', email: 'a@b.co' })).toBe('0412 345 678');
    expect(customerLabel({ name: null, phone: '+442079460958', email: null })).toBe('+44 20 7946 0958');
    setBusinessCountry(null);
    expect(customerLabel({ name: null, phone: null, email: 'a@b.co' })).toBe('a@b.co');
    expect(customerLabel({ name: null, phone: null, email: null })).toBe('Unknown customer');
  });

  it('calls a website chat visitor who gave nothing a website visitor, and uses what the pre-chat form collected', () => {
    const nobody = { name: null, phone: null, email: null };
    expect(customerLabel(nobody, 'widget')).toBe('Website visitor');
    expect(customerLabel({ ...nobody, email: 'vera@example.com' }, 'widget')).toBe('vera@example.com');
    expect(customerLabel({ ...nobody, name: 'Vera' }, 'widget')).toBe('Vera');
    expect(customerLabel(nobody, 'sms')).toBe('Unknown customer');
  });
});

describe('initials', () => {
  it('takes the first and last words', () => {
    expect(initials('Priya Shah')).toBe('PS');
    expect(initials('Mary Anne van Dyke')).toBe('MD');
    expect(initials('sam')).toBe('S');
    expect(initials('+61 400 000 000')).toBe('60');
    expect(initials('')).toBe('?');
  });
});

describe('formatListTime', () => {
  const now = new Date(2025, 5, 18, 15, 0);
  it('is short for today', () => {
    expect(formatListTime(new Date(2025, 5, 18, 14, 59, 40).toISOString(), now)).toBe('now');
    expect(formatListTime(new Date(2025, 5, 18, 14, 55).toISOString(), now)).toBe('5m');
    expect(formatListTime(new Date(2025, 5, 18, 11, 0).toISOString(), now)).toBe('4h');
  });
  it('names yesterday and the weekday within a week, then the date', () => {
    expect(formatListTime(new Date(2025, 5, 17, 23, 0).toISOString(), now)).toBe('Yesterday');
    expect(formatListTime(new Date(2025, 5, 14, 9, 0).toISOString(), now)).toBe('Sat');
    expect(formatListTime(new Date(2025, 1, 3, 9, 0).toISOString(), now)).toBe('3 Feb');
    expect(formatListTime(new Date(2024, 1, 3, 9, 0).toISOString(), now)).toBe('3 Feb 2024');
  });
});

describe('peopleSentence', () => {
  it('names one, two or many people', () => {
    expect(peopleSentence([], 'is also viewing', 'are also viewing')).toBeNull();
    expect(peopleSentence(['Priya Shah'], 'is also viewing', 'are also viewing')).toBe(
      'Priya Shah is also viewing',
    );
    expect(peopleSentence(['Priya Shah', 'Sam Nguyen'], 'is typing…', 'are typing…')).toBe(
      'Priya Shah and Sam Nguyen are typing…',
    );
    expect(peopleSentence(['A', 'B', 'C', 'D'], 'is also viewing', 'are also viewing')).toBe(
      'A, B and 2 others are also viewing',
    );
  });
});

describe('continuesRun', () => {
  const at = (minute: number) => new Date(2025, 5, 18, 10, minute).toISOString();
  const inbound = (minute: number) => ({ direction: 'in', team_user_id: null, created_at: at(minute) });
  const fromSam = (minute: number) => ({ direction: 'out', team_user_id: 'sam', created_at: at(minute) });

  it('joins messages from the same sender a few minutes apart', () => {
    expect(continuesRun(inbound(0), inbound(4))).toBe(true);
    expect(continuesRun(fromSam(0), fromSam(1))).toBe(true);
  });

  it('starts a new run for another sender, another teammate or a long pause', () => {
    expect(continuesRun(inbound(0), fromSam(1))).toBe(false);
    expect(continuesRun(fromSam(0), { ...fromSam(1), team_user_id: 'priya' })).toBe(false);
    expect(continuesRun(inbound(0), inbound(6))).toBe(false);
  });
});

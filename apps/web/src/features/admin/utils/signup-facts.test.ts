import { describe, expect, it } from 'vitest';
import { signupFacts } from './signup-facts.ts';

describe('the sign-up record in the admin console', () => {
  it('reads as labelled lines: where from, who referred, which campaign and click', () => {
    const facts = signupFacts({
      ip: '203.0.113.50',
      city: 'Melbourne',
      region: 'Victoria',
      country: 'Australia',
      is_vpn: null,
      referred_by: { id: 'b1', name: 'Harbourside Dental' },
      tracking: { utm_source: 'google', utm_campaign: 'spring', gclid: 'abc123', time_of_visit: '09:12' },
    });
    expect(facts).toEqual([
      { label: 'From', value: '203.0.113.50 (Melbourne, Victoria, Australia)' },
      { label: 'Referred by', value: 'Harbourside Dental' },
      { label: 'Campaign', value: 'google / spring' },
      { label: 'Google Ads click', value: 'abc123' },
      { label: 'time_of_visit', value: '09:12' },
    ]);
    expect(facts.some((f) => f.value.startsWith('{'))).toBe(false);
  });

  it('says nothing it does not know', () => {
    expect(signupFacts({ ip: '10.0.0.1', city: null, tracking: {} })).toEqual([
      { label: 'From', value: '10.0.0.1' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { collectTracking, isTrackingName, MAX_TRACKING_VALUES } from './tracking.ts';

describe('tracking values (spec §3)', () => {
  it('takes names starting utm_, time_of_, session_, gclid, fbclid, msclkid, nothing else', () => {
    for (const name of [
      'utm_source',
      'time_of_first_visit',
      'session_id',
      'gclid',
      'gclid_src',
      'fbclid',
      'msclkid',
    ])
      expect(isTrackingName(name)).toBe(true);
    for (const name of ['access', 'referalPopup', 'utm', 'xgclid', 'UTM_SOURCE', 'key'])
      expect(isTrackingName(name)).toBe(false);
  });

  it('prefers the query over cookies and drops empty values', () => {
    const cookies: [string, string][] = [
      ['utm_source', 'cookie'],
      ['access', 'secret-token'],
      ['gclid', ''],
    ];
    const query: [string, string][] = [
      ['utm_source', 'google'],
      ['fbclid', 'abc'],
    ];
    expect(collectTracking(cookies, query)).toEqual({ utm_source: 'google', fbclid: 'abc' });
  });

  it('keeps at most the allowance of values, each trimmed', () => {
    const many = Array.from({ length: 80 }, (_, i) => [`utm_${i}`, 'x'.repeat(900)] as [string, string]);
    const got = collectTracking(many);
    expect(Object.keys(got)).toHaveLength(MAX_TRACKING_VALUES);
    expect(got.utm_0).toHaveLength(500);
  });
});

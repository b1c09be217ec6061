import { describe, expect, it } from 'vitest';
import { createLimiter, ipKey } from './limiter.ts';

const quiet = { error: () => {} };

describe('per-IP limit keys', () => {
  it.each([
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:0:0:9', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::ffff:0102:0304', '1.2.3.4'],
    ['1.2.3.4', '1.2.3.4'],
    ['not-an-address', 'not-an-address'],
  ])('%s counts as %s', (ip, key) => {
    expect(ipKey(ip)).toBe(key);
  });

  it('two addresses of one /64 share a limit, another /64 has its own, and ::ffff:1.2.3.4 is 1.2.3.4', async () => {
    const limiter = await createLimiter({ log: quiet });
    const rule = { name: 'test_ip', points: 2, windowSeconds: 60 };
    const take = (ip: string) => limiter.take(rule, ipKey(ip));
    expect(await take('2001:db8:aa:1::1')).toBeNull();
    expect(await take('2001:db8:aa:1:ffff:ffff:ffff:fffe')).toBeNull();
    expect(await take('2001:db8:aa:1::9')).toBeGreaterThan(0);
    expect(await take('2001:db8:aa:2::1')).toBeNull();

    expect(await take('1.2.3.4')).toBeNull();
    expect(await take('::ffff:1.2.3.4')).toBeNull();
    expect(await take('1.2.3.4')).toBeGreaterThan(0);
    await limiter.close();
  });
});

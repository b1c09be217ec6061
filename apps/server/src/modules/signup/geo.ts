import ipaddr from 'ipaddr.js';

/** What is known about where a sign-up came from (spec §7's `meta`, less the tracking values). */
export type IpDetails = {
  ip: string;
  city: string | null;
  region: string | null;
  region_iso_code: string | null;
  postal_code: string | null;
  country: string | null;
  country_code: string | null;
  longitude: number | null;
  latitude: number | null;
  /** Not known from the shipped data: null rather than a guess. */
  is_vpn: boolean | null;
  connection: string | null;
};

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

const unknownAbout = (ip: string): IpDetails => ({
  ip,
  city: null,
  region: null,
  region_iso_code: null,
  postal_code: null,
  country: null,
  country_code: null,
  longitude: null,
  latitude: null,
  is_vpn: null,
  connection: null,
});

/**
 * Looks the address up in the GeoLite data shipped with the server (`fast-geoip`, read from disk per lookup,
 * IPv4 only): nothing is sent anywhere. Private, loopback and IPv6 addresses, a lookup turned off, and any
 * failure give the address alone; a sign-up never waits on or fails for this.
 */
export async function lookupIp(ip: string, mode: 'local' | 'off'): Promise<IpDetails> {
  const details = unknownAbout(ip);
  if (mode === 'off' || !ipaddr.isValid(ip)) return details;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  if (address.kind() !== 'ipv4' || address.range() !== 'unicast') return details;
  try {
    const geoip = (await import('fast-geoip')).default;
    const found = await geoip.lookup(address.toString());
    if (!found) return details;
    const code = found.country || null;
    const hasPoint = found.ll && (found.ll[0] !== 0 || found.ll[1] !== 0);
    return {
      ...details,
      city: found.city || null,
      region: found.region || null,
      region_iso_code: code && found.region ? `${code}-${found.region}` : null,
      country: code ? (countryNames.of(code) ?? code) : null,
      country_code: code,
      latitude: hasPoint ? found.ll[0] : null,
      longitude: hasPoint ? found.ll[1] : null,
    };
  } catch {
    return details;
  }
}

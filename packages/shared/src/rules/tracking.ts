import { TRACKING_PREFIXES } from '../constants.ts';

export const MAX_TRACKING_VALUES = 50;
export const MAX_TRACKING_VALUE_LENGTH = 500;

/** Spec §3: the cookie and query values whose names start with utm_, time_of_, session_, gclid, fbclid, msclkid. */
export function isTrackingName(name: string): boolean {
  return TRACKING_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The tracking values among `sources` (cookies first, then the page's query, which wins): only names the spec
 * lists, each value trimmed to its allowance, at most MAX_TRACKING_VALUES of them.
 */
export function collectTracking(...sources: Iterable<[string, string]>[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const source of sources) {
    for (const [name, value] of source) {
      if (!isTrackingName(name) || !value) continue;
      if (!(name in found) && Object.keys(found).length >= MAX_TRACKING_VALUES) continue;
      found[name] = value.slice(0, MAX_TRACKING_VALUE_LENGTH);
    }
  }
  return found;
}

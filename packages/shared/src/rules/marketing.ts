import { NO_MARKETING_PATH_FRAGMENT, NO_MARKETING_PATHS } from '../constants.ts';

/**
 * True on the embedded widget and contact pages (and any page below them) and on any path
 * containing 'extension'. '/widgets' or '/contacts' are other pages and still load the scripts.
 */
export function skipsMarketingScripts(pathname: string): boolean {
  if (pathname.includes(NO_MARKETING_PATH_FRAGMENT)) return true;
  return NO_MARKETING_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

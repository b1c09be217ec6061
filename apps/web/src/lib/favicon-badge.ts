const ICON = '/favicon.svg';

/** The app's icon with a red badge of `count` in its corner (as an SVG data URL), or the plain icon for 0. */
export function badgedIcon(count: number): string {
  if (count <= 0) return ICON;
  const label = count > 99 ? '99+' : String(count);
  const size = label.length > 2 ? 9 : label.length > 1 ? 11 : 13;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#1E75FF"/><path d="M9 11h14M9 16h10M9 21h6" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/><circle cx="23" cy="9" r="9" fill="#E5484D" stroke="#fff" stroke-width="1.5"/><text x="23" y="9" dy=".35em" text-anchor="middle" font-family="Arial,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** Shows the unread count on the tab's icon too, where the title is cut short. */
export function setFaviconBadge(count: number): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  const href = badgedIcon(count);
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

// The website snippet: <script src="https://…/widget.js" data-location="LOCATION_ID" async></script>
// Injects a chat bubble; the chat itself is an iframe loaded on first open. No framework, no dependencies.

type PageData = Record<string, string>;

const PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'gclid', 'fbclid', 'msclkid'] as const;

/** At most `max` UTF-16 units, never ending in half of an emoji's surrogate pair (the server refuses that). */
function cut(text: string, max: number): string {
  const end = text.length > max && /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

function findScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.location) return current;
  return document.querySelector<HTMLScriptElement>('script[data-location][src*="widget.js"]');
}

function pageData(): PageData {
  const data: PageData = { url: location.href.slice(0, 2000), referrer: document.referrer.slice(0, 2000) };
  const query = new URLSearchParams(location.search);
  for (const key of PARAMS) {
    const value = query.get(key);
    if (value) data[key] = cut(value, 500);
  }
  return data;
}

/** Reads, writes (a string) or removes (null) a localStorage item; storage may be unavailable. */
function store(key: string, value?: string | null): string | null {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage blocked: the chat still works until the page is closed.
  }
  return null;
}

function start(): void {
  const script = findScript();
  const locationId = script?.dataset.location;
  if (!script || !locationId || document.getElementById('sb-widget-bubble')) return;
  const origin = new URL(script.src, location.href).origin;
  const page = pageData();
  const tokenKey = `sb-widget:${locationId}`;

  const bubble = document.createElement('button');
  bubble.id = 'sb-widget-bubble';
  bubble.type = 'button';
  bubble.setAttribute('aria-label', 'Open chat');
  bubble.title = 'Chat with us';
  bubble.style.cssText =
    'position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;' +
    'background:#1E75FF;color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483646;padding:0;' +
    'display:flex;align-items:center;justify-content:center';
  // The chat icon while closed; a close mark while open, so the same button closes it.
  bubble.innerHTML =
    '<svg data-icon="chat" width="26" height="26" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z"/></svg>' +
    '<svg data-icon="close" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" aria-hidden="true" style="display:none"><path d="M6 6l12 12M18 6L6 18"/></svg>';

  // Replies that arrived while the chat was closed, shown on the bubble.
  const badge = document.createElement('span');
  badge.setAttribute('aria-hidden', 'true');
  badge.style.cssText =
    'position:absolute;top:-2px;right:-2px;min-width:20px;height:20px;padding:0 5px;border-radius:10px;' +
    'background:#E5484D;color:#fff;font:600 12px/20px system-ui,sans-serif;text-align:center;display:none;' +
    'box-sizing:border-box';
  bubble.appendChild(badge);
  let unread = 0;

  let frame: HTMLIFrameElement | null = null;
  let open = false;

  const label = () => {
    if (open) return 'Close chat';
    return unread ? `Open chat (${unread} new ${unread === 1 ? 'reply' : 'replies'})` : 'Open chat';
  };
  const showUnread = (count: number) => {
    unread = count;
    badge.textContent = count > 9 ? '9+' : count ? String(count) : '';
    badge.style.display = count ? 'block' : 'none';
    bubble.setAttribute('aria-label', label());
  };

  /** The chat frame, created on first need and kept (hidden while closed) so the chat stays connected. */
  const ensureFrame = () => {
    if (!frame) {
      frame = document.createElement('iframe');
      frame.id = 'sb-widget-frame';
      frame.title = 'Chat';
      const src = new URL('/widget', origin);
      src.searchParams.set('location', locationId);
      src.searchParams.set('page', JSON.stringify(page));
      // Browsers that block storage in third-party frames would forget the chat on reload, so the visitor
      // token is also kept in this (first-party) page's storage and handed to the frame in the fragment.
      const token = store(tokenKey);
      if (token) src.hash = `token=${encodeURIComponent(token)}`;
      frame.src = src.href;
      frame.style.cssText =
        'position:fixed;right:20px;bottom:88px;width:370px;height:560px;max-width:calc(100vw - 40px);' +
        'max-height:calc(100vh - 108px);border:0;border-radius:14px;box-shadow:0 8px 30px rgba(0,0,0,.25);' +
        'z-index:2147483647;background:#fff';
      frame.style.display = 'none';
      document.body.appendChild(frame);
    }
    return frame;
  };

  const setOpen = (next: boolean) => {
    open = next;
    if (next) ensureFrame();
    if (frame) frame.style.display = next ? 'block' : 'none';
    if (next) frame?.contentWindow?.postMessage('sb-widget:opened', origin);
    bubble.setAttribute('aria-expanded', String(next));
    for (const icon of bubble.querySelectorAll<SVGElement>('svg[data-icon]'))
      icon.style.display = (icon.dataset.icon === 'close') === next ? '' : 'none';
    showUnread(next ? 0 : unread);
  };

  bubble.addEventListener('click', () => setOpen(!open));
  window.addEventListener('message', (event) => {
    if (event.origin !== origin || !frame || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown; token?: unknown } | string;
    if (data === 'sb-widget:close') setOpen(false);
    else if (data === 'sb-widget:reply' && !open) showUnread(unread + 1);
    else if (typeof data === 'object' && data?.type === 'sb-widget:token') {
      store(tokenKey, typeof data.token === 'string' ? data.token : null);
    }
  });
  document.body.appendChild(bubble);
  // A returning visitor's chat connects straight away (hidden), so a reply shows on the bubble on any page;
  // for everyone else the chat loads on first open.
  if (store(tokenKey)) ensureFrame();

  // The location's colour; the bubble works without it.
  fetch(`${origin}/widget-api/locations/${encodeURIComponent(locationId)}/config`)
    .then((r) => (r.ok ? r.json() : null))
    .then((config: { color?: string } | null) => {
      if (config?.color && /^#[0-9a-f]{6}$/i.test(config.color)) bubble.style.background = config.color;
    })
    .catch(() => {});
}

if (document.body) start();
else document.addEventListener('DOMContentLoaded', start);

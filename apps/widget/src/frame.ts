import type {
  VisitorMessage as ChatMessage,
  WidgetConfig as Config,
  WIDGET_MAX_MESSAGE_CHARS,
} from '@switchboard/shared';
import { readableAccent } from '@switchboard/shared/rules/readable-accent';
import { io, type Socket } from 'socket.io-client';
import './frame.css';

type Ack<T> = ({ ok: true } & T) | { ok: false; error: string };

// Typed as the shared constant, so the two cannot drift; the value is written out so no shared code ships.
const MAX_CHARS: typeof WIDGET_MAX_MESSAGE_CHARS = 2000;
/** How often a message is tried before it shows as failed, and how long each try waits for the server. */
const SEND_RETRIES = 5;
const ACK_TIMEOUT_MS = 10_000;
const params = new URLSearchParams(location.search);
const locationId = params.get('location') ?? '';
const storageKey = `sb-widget:${locationId}`;
const app = document.getElementById('app') as HTMLDivElement;

/** Every piece of text goes in through textContent: nothing a visitor or staff writes is ever parsed as HTML. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; attrs?: Record<string, string> } = {},
  children: Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [k, v] of Object.entries(props.attrs ?? {})) node.setAttribute(k, v);
  for (const child of children) node.appendChild(child);
  return node;
}

function pageData(): Record<string, string> {
  try {
    const parsed = JSON.parse(params.get('page') ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return {};
  }
}

/** The token the loader kept in the website's own storage (for browsers that block storage in frames). */
const handedToken = new URLSearchParams(location.hash.slice(1)).get('token');
if (location.hash) history.replaceState(null, '', location.pathname + location.search);
/** Tells the loader on the website to keep (or forget) the visitor token in its first-party storage. */
const tellLoader = (token: string | null) => {
  if (window.parent !== window) window.parent.postMessage({ type: 'sb-widget:token', token }, '*');
};

const storage = {
  get: () => {
    try {
      return localStorage.getItem(storageKey) ?? handedToken;
    } catch {
      return handedToken;
    }
  },
  set: (token: string) => {
    tellLoader(token);
    try {
      localStorage.setItem(storageKey, token);
    } catch {
      // Storage blocked: the loader keeps it.
    }
  },
  clear: () => {
    tellLoader(null);
    try {
      localStorage.removeItem(storageKey);
    } catch {}
  },
};

function header(config: Config): HTMLElement {
  const close = el('button', {
    className: 'close',
    text: '×',
    attrs: { type: 'button', 'aria-label': 'Close chat' },
  });
  close.addEventListener('click', () => window.parent.postMessage('sb-widget:close', '*'));
  // The business's name (or the owner's title); the location under it only when the business has several.
  const title = el('div', { className: 'title', text: config.title || 'Chat with us' });
  const lines = [
    ...(config.subtitle ? [el('div', { className: 'subtitle', text: config.subtitle })] : []),
    // When the location replies, or that it is closed and when it opens, from its hours.
    ...(config.availability ? [el('div', { className: 'availability', text: config.availability })] : []),
  ];
  const heading = lines.length ? el('div', { className: 'heading' }, [title, ...lines]) : title;
  const brand = el('div', { className: 'brand' }, [
    ...(config.logo ? [el('img', { className: 'logo', attrs: { src: config.logo, alt: '' } })] : []),
    heading,
  ]);
  return el('header', {}, [brand, close]);
}

function showError(text: string): void {
  app.replaceChildren(el('div', { className: 'fatal', text }));
}

/** A reply that finds the chat closed goes by text message to the number given: the visitor is told before. */
const PHONE_HINT = 'If you leave the chat before we answer, we may reply by text message to this number.';

function renderForm(config: Config, notice?: string): void {
  const form = el('form', { className: 'prechat', attrs: { novalidate: '' } });
  const error = el('div', { className: 'error', attrs: { role: 'alert' } });
  const inputs: Partial<Record<keyof Config['fields'], HTMLInputElement>> = {};
  const labels = { name: 'Your name', phone: 'Phone number', email: 'Email' } as const;
  const types = { name: 'text', phone: 'tel', email: 'email' } as const;
  form.appendChild(el('p', { className: 'greeting', text: config.greeting }));
  if (notice) form.appendChild(el('p', { className: 'notice', text: notice }));
  for (const key of ['name', 'phone', 'email'] as const) {
    const field = config.fields[key];
    if (!field.ask) continue;
    const input = el('input', {
      attrs: { name: key, type: types[key], autocomplete: key === 'phone' ? 'tel' : key, maxlength: '200' },
    });
    input.required = field.required;
    inputs[key] = input;
    form.appendChild(
      el('label', {}, [
        el('span', { text: field.required ? labels[key] : `${labels[key]} (optional)` }),
        input,
        ...(key === 'phone' ? [el('small', { className: 'hint', text: PHONE_HINT })] : []),
      ]),
    );
  }
  const submit = el('button', { className: 'primary', text: 'Start chat', attrs: { type: 'submit' } });
  form.append(error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const body: Record<string, unknown> = { page: pageData() };
    for (const [key, input] of Object.entries(inputs)) {
      const value = input.value.trim();
      if (!value && input.required) {
        error.textContent = `Please enter ${labels[key as keyof typeof labels].toLowerCase()}.`;
        input.focus();
        return;
      }
      if (value) body[key] = value;
    }
    submit.disabled = true;
    try {
      const res = await fetch(`/widget-api/locations/${encodeURIComponent(locationId)}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => ({}))) as {
        visitor_token?: string;
        error?: { message?: string };
        message?: string;
      };
      if (!res.ok || !json.visitor_token) {
        error.textContent =
          json.error?.message ?? json.message ?? 'Could not start the chat. Please try again.';
        return;
      }
      storage.set(json.visitor_token);
      renderChat(config, json.visitor_token);
    } catch {
      error.textContent = 'Could not reach us. Check your connection and try again.';
    } finally {
      submit.disabled = false;
    }
  });
  app.replaceChildren(header(config), form);
  const first = Object.values(inputs)[0];
  first?.focus();
}

function renderChat(config: Config, token: string): void {
  const list = el('div', { className: 'messages', attrs: { role: 'log', 'aria-live': 'polite' } });
  const typing = el('div', { className: 'typing', attrs: { 'aria-live': 'polite' } });
  const status = el('div', { className: 'status', attrs: { role: 'status' } });
  const input = el('textarea', {
    attrs: {
      placeholder: 'Write a message…',
      rows: '1',
      maxlength: String(MAX_CHARS),
      'aria-label': 'Message',
    },
  });
  const send = el('button', { className: 'primary', text: 'Send', attrs: { type: 'submit' } });
  const composer = el('form', { className: 'composer' }, [input, send]);
  app.replaceChildren(header(config), list, typing, status, composer);
  list.appendChild(el('div', { className: 'bubble staff greeting-bubble', text: config.greeting }));

  const shown = new Map<string, HTMLElement>();
  const scroll = () => {
    list.scrollTop = list.scrollHeight;
  };
  const add = (m: ChatMessage, pending = false) => {
    const key = m.client_id ? `c:${m.client_id}` : `i:${m.id}`;
    const existing = shown.get(key) ?? shown.get(`i:${m.id}`);
    if (existing) {
      existing.classList.toggle('pending', pending);
      shown.set(`i:${m.id}`, existing);
      return existing;
    }
    const bubble = el('div', {
      className: `bubble ${m.from}${pending ? ' pending' : ''}`,
      text: m.text,
      attrs: { 'data-from': m.from },
    });
    list.appendChild(bubble);
    // Who answered and when, under the bubble.
    const at = new Date(m.created_at);
    const time = Number.isNaN(at.getTime())
      ? ''
      : at.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    const who = m.from === 'staff' ? (m.agent ?? '') : '';
    const meta = el('div', { className: `meta ${m.from}`, text: [who, time].filter(Boolean).join(' · ') });
    if (m.from === 'staff' && m.agent_avatar) {
      meta.prepend(el('img', { className: 'avatar', attrs: { src: m.agent_avatar, alt: '' } }));
    }
    list.appendChild(meta);
    shown.set(key, bubble);
    if (m.id) shown.set(`i:${m.id}`, bubble);
    scroll();
    return bubble;
  };

  // Every message is sent until the server acknowledges it (Socket.IO's retries: in order, again after a
  // reconnect, with the same id): a server that stored it and stopped before answering gets it again and
  // answers with what it stored, so the visitor never sees a stored message as failed, nor sends it twice.
  const socket: Socket = io('/visitor', {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket', 'polling'],
    retries: SEND_RETRIES,
    ackTimeout: ACK_TIMEOUT_MS,
  });
  socket.on('connect', () => {
    status.textContent = '';
    socket.emit('history', (err: Error | null, reply?: Ack<{ messages: ChatMessage[] }>) => {
      if (err || !reply) return;
      if (!reply.ok) {
        status.textContent = reply.error;
        return;
      }
      for (const m of reply.messages) add(m);
    });
  });
  socket.on('connect_error', (err: Error) => {
    if (socket.active) {
      status.textContent = 'Reconnecting…';
      return;
    }
    // Refused by the server: the token is no longer valid, so start again.
    storage.clear();
    socket.disconnect();
    renderForm(config, err.message);
  });
  socket.on('disconnect', () => {
    if (socket.active) status.textContent = 'Reconnecting…';
  });
  socket.on('message', (m: ChatMessage) => {
    if (m.from === 'staff') {
      typing.textContent = '';
      // The page's bubble counts replies that arrive while the chat is closed (no content leaves the frame).
      if (window.parent !== window) window.parent.postMessage('sb-widget:reply', '*');
    }
    add(m);
  });
  let typingTimer: number | undefined;
  socket.on('typing', (event: { typing: boolean; full_name: string }) => {
    window.clearTimeout(typingTimer);
    typing.textContent = event.typing ? `${event.full_name || 'Someone'} is typing…` : '';
    if (event.typing) typingTimer = window.setTimeout(() => (typing.textContent = ''), 8000);
  });

  let iAmTyping = false;
  let stopTimer: number | undefined;
  const setTyping = (next: boolean) => {
    // Typing is of the moment: never queued behind messages, never sent again.
    if (next !== iAmTyping) socket.volatile.emit('typing', { typing: next });
    iAmTyping = next;
  };
  input.addEventListener('input', () => {
    setTyping(input.value.trim().length > 0);
    window.clearTimeout(stopTimer);
    stopTimer = window.setTimeout(() => setTyping(false), 3000);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });
  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHARS) {
      status.textContent = `Messages can be at most ${MAX_CHARS} characters.`;
      return;
    }
    const client_id = crypto.randomUUID();
    const bubble = add(
      { id: '', from: 'visitor', text, created_at: new Date().toISOString(), client_id },
      true,
    );
    input.value = '';
    setTyping(false);
    status.textContent = '';
    socket.emit(
      'message',
      { text, client_id },
      (err: Error | null, reply?: Ack<{ message: ChatMessage }>) => {
        if (err || !reply) {
          bubble.classList.add('failed');
          status.textContent = 'Your message could not be sent. Please try again.';
          return;
        }
        if (!reply.ok) {
          bubble.classList.add('failed');
          status.textContent = reply.error;
          return;
        }
        add(reply.message);
        bubble.classList.remove('pending');
      },
    );
  });
  input.focus();
}

async function main(): Promise<void> {
  if (!locationId) return showError('This chat is not set up correctly.');
  let config: Config;
  try {
    const res = await fetch(`/widget-api/locations/${encodeURIComponent(locationId)}/config`);
    if (!res.ok) return showError('This chat is not available.');
    config = (await res.json()) as Config;
  } catch {
    return showError('Could not reach us. Check your connection and reload.');
  }
  // The business's colour, deepened where white words on it would not read (WCAG AA).
  const accent = readableAccent(config.color);
  document.documentElement.style.setProperty('--accent', accent.fill);
  document.documentElement.style.setProperty('--accent-text', accent.text);
  const token = storage.get();
  if (token) renderChat(config, token);
  else renderForm(config);
}

// The page keeps a returning visitor's chat loaded but hidden; when they open it, the cursor goes to the
// first field (a hidden frame cannot take focus when it renders).
window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.data !== 'sb-widget:opened') return;
  document.querySelector<HTMLElement>('#app textarea, #app input')?.focus();
});

void main();

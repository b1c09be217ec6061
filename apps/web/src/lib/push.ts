import { API_BASES, api, type Envelope } from './api-client.ts';
import { getAccessToken } from './cookies.ts';

/** Spec §8's texts for a browser that cannot be pushed to. */
export const NO_SERVICE_WORKER = 'No Service Worker support!';
export const NO_PUSH_API = 'No Push API Support!';

/** Spec §4: registration is tried again up to 3 times, the delay doubling from 1 second. */
export const SW_RETRIES = 3;
export const SW_FIRST_DELAY_MS = 1000;

/**
 * Where this browser stands: it cannot be pushed to; the person refused (only the browser's site settings can
 * undo that); not asked yet; allowed but not subscribed; subscribed.
 */
export type PushState = 'unsupported' | 'denied' | 'default' | 'off' | 'on';

/** Why the browser could not be signed up for pushes, in words for the person (not a bug of ours). */
export class PushSetupError extends Error {
  override name = 'PushSetupError';
}

/** A browser's refusal (a DOMException from the service worker or push APIs) in words for the person. */
export function pushSetupProblem(error: unknown): PushSetupError {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  if (name === 'NotAllowedError')
    return new PushSetupError(
      'This browser blocks notifications from Switchboard: allow them in the site settings.',
    );
  if (name === 'NetworkError')
    return new PushSetupError(
      'This browser could not reach its push service. Check the connection and try again.',
    );
  return new PushSetupError(
    `This browser could not sign up for notifications${detail}. Sounds still play while a Switchboard tab is open; try again later, or in another browser (private windows cannot receive notifications).`,
  );
}

/** Tries `attempt`, then again up to `retries` times, waiting `firstDelayMs`, then twice as long each time. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  retries = SW_RETRIES,
  firstDelayMs = SW_FIRST_DELAY_MS,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  let delay = firstDelayMs;
  for (let tried = 0; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= retries) throw error;
      await wait(delay);
      delay *= 2;
    }
  }
}

/** Why this browser cannot be pushed to, in spec §8's words, or null when it can. */
export function pushUnsupported(): string | null {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return NO_SERVICE_WORKER;
  if (typeof window === 'undefined' || !('PushManager' in window) || typeof Notification === 'undefined')
    return NO_PUSH_API;
  return null;
}

/** Registers the service worker (retried) and hands it the access token and the API base (spec §7). */
async function registerWorker(): Promise<ServiceWorkerRegistration> {
  const registration = await withRetries(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  const ready = await navigator.serviceWorker.ready;
  (ready.active ?? registration.active)?.postMessage({
    type: 'config',
    access: getAccessToken() ?? null,
    api: API_BASES.v1.baseURL,
  });
  return ready;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((v, i) => v === b[i]);
}

/** Where this browser stands now, without asking the person anything. */
export async function pushState(): Promise<PushState> {
  if (pushUnsupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission === 'default') return 'default';
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? 'on' : 'off';
}

/**
 * Asks the browser's permission (when not yet given), registers the service worker, subscribes with this
 * server's key and tells the server. A refusal registers nothing and answers 'denied'.
 */
export async function turnOnPush(): Promise<PushState> {
  const unsupported = pushUnsupported();
  if (unsupported) throw new PushSetupError(unsupported);
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'default';
  const { data } = await api.get<Envelope<{ public_key: string }>>('/push/vapid-public-key', {
    silent: true,
  });
  const key = keyBytes(data.body.public_key);
  let subscription: PushSubscription;
  try {
    const registration = await registerWorker();
    let existing = await registration.pushManager.getSubscription();
    // Subscribed with another server's key (a new installation): that subscription cannot be used.
    if (existing && !sameKey(existing.options.applicationServerKey, key)) {
      await existing.unsubscribe();
      existing = null;
    }
    subscription =
      existing ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  } catch (error) {
    throw pushSetupProblem(error);
  }
  await api.post('/push/subscriptions', subscription.toJSON(), { silent: true });
  return 'on';
}

/** This browser stops being pushed to, for this person (the server forgets it, the browser unsubscribes). */
export async function turnOffPush(): Promise<void> {
  if (pushUnsupported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await api.delete('/push/subscriptions', { data: { endpoint: subscription.endpoint }, silent: true });
  await subscription.unsubscribe().catch((error: unknown) => {
    throw pushSetupProblem(error);
  });
}

/**
 * On every start of the signed-in app: a browser already allowed and subscribed is confirmed to the server (it
 * may be a new session, or the server lost it) and its service worker gets the current token. Nothing is asked.
 */
export async function keepPushCurrent(): Promise<void> {
  if ((await pushState()) !== 'on') return;
  await turnOnPush();
}

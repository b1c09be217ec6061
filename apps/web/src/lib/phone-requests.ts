/**
 * "Call this customer" from anywhere in the app (a conversation, the customer panel) to the phone, which may
 * not have loaded yet: the request waits until the phone takes it.
 */
export type CallRequest = { number: string; enquiryId?: string | null; name?: string | null };

let pending: CallRequest | null = null;
const listeners = new Set<(request: CallRequest) => void>();

export function requestCall(request: CallRequest): void {
  pending = request;
  for (const listener of listeners) listener(request);
}

/** The request not yet taken, once: the phone places it. */
export function takeCallRequest(): CallRequest | null {
  const request = pending;
  pending = null;
  return request;
}

export function onCallRequest(listener: (request: CallRequest) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let available = false;

/** Whether this browser's phone is available (it then rings with its own toast instead of the general notice). */
export const isPhoneAvailable = () => available;
export function setPhoneAvailable(on: boolean): void {
  available = on;
}

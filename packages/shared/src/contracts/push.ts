import { z } from 'zod';

/** `GET /push/vapid-public-key`: the key a browser subscribes with (base64url, as `applicationServerKey`). */
export const VapidPublicKey = z.object({ public_key: z.string() });

const Base64Url = (what: string) =>
  z
    .string(`${what} is missing`)
    .min(16, `${what} is too short`)
    .max(200, `${what} is too long`)
    .regex(/^[A-Za-z0-9_-]+=*$/, `${what} is not base64url`);

/** `POST /push/subscriptions`: a browser's `PushSubscription.toJSON()`. */
export const PushSubscriptionRequest = z.object({
  endpoint: z
    .string('The endpoint is missing')
    .max(2000, 'The endpoint is too long')
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'The endpoint is not an http(s) URL'),
  expirationTime: z.number().nullish(),
  keys: z.object({ p256dh: Base64Url('The p256dh key'), auth: Base64Url('The auth secret') }),
});

/** `DELETE /push/subscriptions`: this browser no longer wants pushes for the signed-in person. */
export const PushUnsubscribeRequest = z.strictObject({ endpoint: z.string().min(1).max(2000) });

export const PushSubscribed = z.object({ subscribed: z.boolean() });

/** What a push carries to the service worker, which shows it as a notification. */
export type PushPayload = {
  title: string;
  body: string;
  /** Where a click on the notification opens (a path of the app). */
  url: string;
  /** Notifications with the same tag replace each other (one per enquiry). */
  tag: string;
  kind: 'enquiry' | 'message';
};

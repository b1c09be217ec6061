import { businesses, locations } from '@switchboard/db';
import type { GoogleLocations } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { decryptJson, deriveKey, encryptJson, hmac, safeEqual } from '../../lib/crypto.ts';

type Places = z.input<typeof GoogleLocations>;

/** The scope the Business Profile APIs need. */
export const BUSINESS_MANAGE_SCOPE = 'https://www.googleapis.com/auth/business.manage';
const STATE_TTL_MS = 15 * 60_000;
const SEAL_CONTEXT = 'google-business-token';

/** Google's own link that opens the review form for a place. */
export const googleReviewLink = (placeId: string) =>
  `https://search.google.com/local/writereview?placeid=${encodeURIComponent(placeId)}`;

const configured = (config: Config) =>
  Boolean(config.googleBusiness.clientId && config.googleBusiness.clientSecret);
const redirectUri = (config: Config) => `${config.publicUrl}/api/v1/business/google/callback`;

/** The OAuth `state`: which business and person asked, until when, signed so a callback cannot be forged. */
function signState(config: Config, businessId: string, userId: string): string {
  const body = `${businessId}.${userId}.${Date.now() + STATE_TTL_MS}`;
  const sig = hmac('sha256', deriveKey(config.encryptionKey, 'google-oauth-state'), body).toString(
    'base64url',
  );
  return Buffer.from(`${body}.${sig}`).toString('base64url');
}

function readState(config: Config, state: string): { business_id: string; user_id: string } | null {
  const [businessId, userId, exp, sig] = Buffer.from(state, 'base64url').toString().split('.');
  if (!businessId || !userId || !exp || !sig) return null;
  const expected = hmac(
    'sha256',
    deriveKey(config.encryptionKey, 'google-oauth-state'),
    `${businessId}.${userId}.${exp}`,
  );
  if (!safeEqual(sig, expected.toString('base64url')) || Number(exp) < Date.now()) return null;
  return { business_id: businessId, user_id: userId };
}

/** `GET /business/google/connect-link`: where the owner lets Switchboard read their Business Profile locations. */
export function googleConnectLink(config: Config, businessId: string, userId: string): string {
  if (!configured(config))
    throw new AppError(
      'conflict',
      'Google Business Profile is not set up on this server (GOOGLE_BUSINESS_CLIENT_ID). Paste each location’s review link instead.',
    );
  const url = new URL(config.googleBusiness.authUrl);
  url.search = new URLSearchParams({
    client_id: config.googleBusiness.clientId!,
    redirect_uri: redirectUri(config),
    response_type: 'code',
    scope: BUSINESS_MANAGE_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    state: signState(config, businessId, userId),
  }).toString();
  return url.toString();
}

async function googleJson<T>(config: Config, url: string, init: RequestInit, what: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(config.providers.timeoutMs) });
  } catch (error) {
    throw new AppError('service_unavailable', `Google did not answer (${what}): ${(error as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as T & {
    error?: string | { message?: string };
    error_description?: string;
  };
  if (!res.ok) {
    const reason =
      typeof body.error === 'object'
        ? body.error.message
        : (body.error_description ?? body.error ?? res.statusText);
    throw Object.assign(new AppError('service_unavailable', `Google refused ${what}: ${reason}`), {
      googleStatus: res.status,
      googleError: typeof body.error === 'string' ? body.error : undefined,
    });
  }
  return body;
}

function tokenRequest(config: Config, params: Record<string, string>) {
  return googleJson<{ access_token: string; refresh_token?: string }>(
    config,
    config.googleBusiness.tokenUrl,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: config.googleBusiness.clientId!,
        client_secret: config.googleBusiness.clientSecret!,
        ...params,
      }),
    },
    'the sign-in',
  );
}

/**
 * `GET /business/google/callback`: Google sends the owner back with a code; its refresh token is kept (sealed)
 * for the business that asked. Answers where the browser goes next (the reviews page, saying how it went).
 */
export async function completeGoogleConnection(
  app: FastifyInstance,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const back = (outcome: string) => `/reviews?google=${outcome}`;
  const asked = query.state ? readState(app.config, query.state) : null;
  if (!asked) return back('expired');
  if (query.error || !query.code) return back('refused');
  try {
    const tokens = await tokenRequest(app.config, {
      code: query.code,
      redirect_uri: redirectUri(app.config),
      grant_type: 'authorization_code',
    });
    if (!tokens.refresh_token) return back('refused');
    await app.db
      .update(businesses)
      .set({
        google_business_token: encryptJson(
          app.config.encryptionKey,
          { refresh_token: tokens.refresh_token },
          `${SEAL_CONTEXT}:${asked.business_id}`,
        ),
      })
      .where(eq(businesses.id, asked.business_id));
    return back('connected');
  } catch (error) {
    app.log.warn({ err: error }, 'connecting Google Business Profile failed');
    return back('failed');
  }
}

/**
 * `GET /business/locations/google-locations`: the Business Profile places a location can be linked to (a place's
 * review link is where its customers write a review). From Google when it is set up and connected; sandbox mode
 * lists fixed places; otherwise none, and the owner pastes the review link.
 */
export async function googleLocations(app: FastifyInstance, businessId: string): Promise<Places> {
  const { config } = app;
  if (!configured(config)) {
    if (!config.sandbox) return { source: 'none', connected: false, items: [] };
    return { source: 'sandbox', connected: true, items: await sandboxPlaces(app, businessId) };
  }
  const [business] = await app.db
    .select({ token: businesses.google_business_token })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!business?.token) return { source: 'google', connected: false, items: [] };
  const { refresh_token } = decryptJson<{ refresh_token: string }>(
    config.encryptionKey,
    business.token,
    `${SEAL_CONTEXT}:${businessId}`,
  );
  let access: string;
  try {
    access = (await tokenRequest(config, { refresh_token, grant_type: 'refresh_token' })).access_token;
  } catch (error) {
    // The owner removed Switchboard's access in Google: the connection is gone, and they can connect again.
    if ((error as { googleError?: string }).googleError === 'invalid_grant') {
      await app.db
        .update(businesses)
        .set({ google_business_token: null })
        .where(eq(businesses.id, businessId));
      return { source: 'google', connected: false, items: [] };
    }
    throw error;
  }
  const auth = { headers: { authorization: `Bearer ${access}` } };
  const items: Places['items'] = [];
  let accountPage: string | undefined;
  do {
    const accounts = await googleJson<{ accounts?: { name: string }[]; nextPageToken?: string }>(
      config,
      `${config.googleBusiness.accountsApiBase}/v1/accounts${accountPage ? `?pageToken=${encodeURIComponent(accountPage)}` : ''}`,
      auth,
      'the list of accounts',
    );
    for (const account of accounts.accounts ?? []) {
      let page: string | undefined;
      do {
        const url = new URL(`${config.googleBusiness.infoApiBase}/v1/${account.name}/locations`);
        url.searchParams.set('readMask', 'name,title,storefrontAddress,metadata');
        url.searchParams.set('pageSize', '100');
        if (page) url.searchParams.set('pageToken', page);
        const found = await googleJson<{
          locations?: {
            title?: string;
            storefrontAddress?: {
              addressLines?: string[];
              locality?: string;
              administrativeArea?: string;
              postalCode?: string;
            };
            metadata?: { placeId?: string; newReviewUri?: string };
          }[];
          nextPageToken?: string;
        }>(config, url.toString(), auth, 'the list of locations');
        for (const l of found.locations ?? []) {
          const placeId = l.metadata?.placeId;
          if (!placeId) continue; // Not verified or not on Maps: it has no review page.
          const a = l.storefrontAddress;
          const address = a
            ? [
                ...(a.addressLines ?? []),
                [a.locality, a.administrativeArea, a.postalCode].filter(Boolean).join(' '),
              ]
                .filter(Boolean)
                .join(', ')
            : null;
          items.push({
            place_id: placeId,
            title: l.title ?? placeId,
            address: address || null,
            review_link: l.metadata?.newReviewUri ?? googleReviewLink(placeId),
          });
        }
        page = found.nextPageToken;
      } while (page && items.length < 1000);
    }
    accountPage = accounts.nextPageToken;
  } while (accountPage && items.length < 1000);
  return { source: 'google', connected: true, items };
}

/**
 * Sandbox mode's places: what the business's own Business Profile would list, one place per location, named and
 * addressed as the business has them (never another business's).
 */
async function sandboxPlaces(app: FastifyInstance, businessId: string): Promise<Places['items']> {
  const rows = await app.db
    .select({ id: locations.id, name: locations.name, address: locations.address, business: businesses.name })
    .from(locations)
    .innerJoin(businesses, eq(businesses.id, locations.business_id))
    .where(eq(locations.business_id, businessId))
    .orderBy(locations.created_at);
  return rows.map((l) => {
    const place_id = `ChIJsandbox-${l.id}`;
    return {
      place_id,
      title: [l.business, l.name].filter(Boolean).join(' ') || 'Your business',
      address: l.address,
      review_link: googleReviewLink(place_id),
    };
  });
}

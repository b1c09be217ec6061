import { createHmac } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { TransientSendError } from '../../lib/provider-errors.ts';
import type { InstagramConfig, MessengerConfig, WhatsAppConfig } from '../catalogue.ts';
import type { Ownership } from '../types.ts';
import { GraphApiError, type GraphTarget, graphApi } from './graph.ts';

/**
 * `appsecret_proof` (Graph API "Securing requests"): HMAC-SHA256 of the access token keyed with the app secret,
 * in hex. Meta refuses a call whose proof does not match the token's app, so a check carrying it also shows
 * the App Secret (which signs the webhooks) belongs to the token's app.
 */
export function appSecretProof(token: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(token).digest('hex');
}

type Deps = { base: string; timeoutMs: number };
export type MetaAccount =
  | { provider: 'messenger'; config: MessengerConfig }
  | { provider: 'instagram'; config: InstagramConfig }
  | { provider: 'whatsapp'; config: WhatsAppConfig };

/** Pages of a WABA's phone numbers read at most: a WhatsApp Business Account has a handful of numbers. */
const MAX_PAGES = 5;

/**
 * Asks Meta whether the token reaches what the account would receive on, with the App Secret's proof:
 * Messenger — the Page token is the Page's (`GET /me` answers the Page id); Instagram — the token's Page is
 * linked to the Instagram account (`GET /me?fields=instagram_business_account`); WhatsApp — the token reads the
 * phone number (`GET /{phone-number-id}`) and, given the WhatsApp Business Account, the number is one of its
 * (`GET /{waba-id}/phone_numbers`). Refused with what is not theirs; a Meta that does not answer is a 503.
 */
export async function metaOwnership(deps: Deps, account: MetaAccount): Promise<Ownership> {
  try {
    switch (account.provider) {
      case 'messenger':
        await provePage(deps, account.config);
        break;
      case 'instagram':
        await proveInstagram(deps, account.config);
        break;
      case 'whatsapp':
        await proveWhatsApp(deps, account.config);
        break;
      default: {
        const never: never = account;
        return never;
      }
    }
  } catch (error) {
    throw refusal(error, account);
  }
  return { proven: true };
}

function call<T>(deps: Deps, token: string, appSecret: string, path: string): Promise<T> {
  const target: GraphTarget = { ...deps, token };
  const joiner = path.includes('?') ? '&' : '?';
  return graphApi<T>(target, 'GET', `${path}${joiner}appsecret_proof=${appSecretProof(token, appSecret)}`);
}

async function provePage(deps: Deps, c: MessengerConfig) {
  const me = await call<{ id?: string }>(deps, c.page_access_token, c.app_secret, '/me?fields=id,name');
  if (me.id !== c.page_id)
    throw new AppError(
      'unprocessable',
      `This Page access token is not a token of Page ${c.page_id}${me.id ? ` (it belongs to ${me.id})` : ''}. Generate the token for the Page you connect, in Meta for Developers or Business Settings.`,
    );
}

async function proveInstagram(deps: Deps, c: InstagramConfig) {
  const me = await call<{ id?: string; instagram_business_account?: { id?: string } }>(
    deps,
    c.access_token,
    c.app_secret,
    '/me?fields=id,instagram_business_account',
  );
  if (me.instagram_business_account?.id !== c.instagram_account_id)
    throw new AppError(
      'unprocessable',
      `This access token's Page is not linked to Instagram account ${c.instagram_account_id}. Use the token of the Facebook Page the Instagram account is connected to.`,
    );
}

async function proveWhatsApp(deps: Deps, c: WhatsAppConfig) {
  const origin = new URL(deps.base).origin;
  await call<{ id?: string }>(deps, c.access_token, c.app_secret, `/${c.phone_number_id}?fields=id`);
  if (!c.waba_id) return;
  let next: string | undefined = `/${c.waba_id}/phone_numbers?fields=id&limit=100`;
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const res: { data?: { id?: string }[]; paging?: { next?: string } } = await call(
      deps,
      c.access_token,
      c.app_secret,
      next,
    );
    if ((res.data ?? []).some((n) => n.id === c.phone_number_id)) return;
    // Only Meta's own paging links are followed.
    const link = res.paging?.next;
    next =
      link && new URL(link).origin === origin ? link.replace(/[?&]appsecret_proof=[^&]*/, '') : undefined;
  }
  throw new AppError(
    'unprocessable',
    `Phone number ${c.phone_number_id} is not a number of WhatsApp Business Account ${c.waba_id}. Check both IDs under WhatsApp → API Setup.`,
  );
}

const WHAT: Record<MetaAccount['provider'], (a: MetaAccount) => string> = {
  messenger: (a) => `Page ${(a.config as MessengerConfig).page_id}`,
  instagram: (a) => `Instagram account ${(a.config as InstagramConfig).instagram_account_id}`,
  whatsapp: (a) => {
    const c = a.config as WhatsAppConfig;
    return c.waba_id
      ? `WhatsApp number ${c.phone_number_id} or WhatsApp Business Account ${c.waba_id}`
      : `WhatsApp number ${c.phone_number_id}`;
  },
};

function refusal(error: unknown, account: MetaAccount): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof TransientSendError || (error instanceof GraphApiError && error.transient))
    return new AppError(
      'service_unavailable',
      'Meta is not answering right now, so the account could not be checked. Try again in a minute.',
    );
  if (!(error instanceof GraphApiError)) return error;
  if (error.detail?.includes('appsecret_proof'))
    return new AppError(
      'unprocessable',
      "The App Secret is not the secret of the app this access token was made for. Copy it again from the app's Settings → Basic in Meta for Developers.",
    );
  if (error.code === '190' || error.status === 401)
    return new AppError(
      'unprocessable',
      'Meta did not accept this access token: it is wrong, has expired or was revoked. Generate a new one and enter it again.',
    );
  // 100 with subcode 33 (no such object, or not readable with this token), 10 and 200 (no permission).
  if (error.code === '100' || error.code === '10' || error.code === '200' || error.status === 403)
    return new AppError(
      'unprocessable',
      `This access token cannot reach ${WHAT[account.provider](account)}: it is not among what the token's business manages. Connect with a token of the business that owns it.`,
    );
  return new AppError('unprocessable', `Meta refused to confirm the account: ${error.message}`);
}

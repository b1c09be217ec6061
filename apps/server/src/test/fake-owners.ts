import { createHmac, createPublicKey } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { decodeJwt, jwtVerify } from 'jose';

/** The access token the fake Google issues for a service account it accepts. */
export const GOOGLE_ACCESS_TOKEN = 'ya29.fake-access-token';

/** What a fake provider is asked: enough of an HTTP request to answer it. */
export type OwnerRequest = { method: string; url: URL; headers: IncomingHttpHeaders; text: string };
export type OwnerReply = { status: number; json: unknown };

type TwilioAccount = { tokens: Set<string>; numbers: Set<string>; services: Set<string> };
type MetaGrant = {
  appSecret: string;
  page?: { id: string; instagram?: string };
  whatsapp?: { phone_number_id: string; waba_id?: string | null };
};

const sidKey = (sid: string) => sid.toLowerCase();
const twilioError = (status: number, code: number, message: string): OwnerReply => ({
  status,
  json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});
// Graph API errors as Meta answers them (HTTP 400 for both, with the code telling them apart).
const badToken = (): OwnerReply => ({
  status: 400,
  json: {
    error: {
      message: 'Invalid OAuth access token - Cannot parse access token',
      type: 'OAuthException',
      code: 190,
      fbtrace_id: 'AfakeTrace',
    },
  },
});
const badProof = (): OwnerReply => ({
  status: 400,
  json: {
    error: {
      message: 'Invalid appsecret_proof provided in the API argument',
      type: 'GraphMethodException',
      code: 100,
      fbtrace_id: 'AfakeTrace',
    },
  },
});
const unreachable = (id: string): OwnerReply => ({
  status: 400,
  json: {
    error: {
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      fbtrace_id: 'AfakeTrace',
    },
  },
});

/**
 * Who owns what at the fake providers, and their answers to the calls that ask (as documented): Twilio's
 * IncomingPhoneNumbers list and Messaging Service fetch (HTTP Basic with Account SID and Auth Token; 401 code
 * 20003 for credentials it does not know), the Graph API's `/me`, `/{phone-number-id}` and
 * `/{waba-id}/phone_numbers` (Bearer token; `appsecret_proof` checked; 190 for an unknown token, 100/33 for an
 * object the token cannot reach), and Google's OAuth token endpoint (the JWT bearer grant, signature checked
 * against the service account's key).
 */
export class ProviderOwners {
  private readonly twilioAccounts = new Map<string, TwilioAccount>();
  private readonly metaTokens = new Map<string, MetaGrant[]>();
  private readonly googleKeys = new Map<string, string>();

  /** A Twilio account: its Account SID, the Auth Tokens it accepts (primary and secondary), what it owns. */
  twilio(
    sid: string,
    tokens: string | string[],
    owns: { numbers?: string[]; services?: string[] } = {},
  ): this {
    const account = this.twilioAccounts.get(sidKey(sid)) ?? {
      tokens: new Set<string>(),
      numbers: new Set<string>(),
      services: new Set<string>(),
    };
    for (const token of [tokens].flat()) account.tokens.add(token);
    // Twilio lists numbers in E.164; an owner may have typed spaces.
    for (const n of owns.numbers ?? []) account.numbers.add(n.replace(/[\s()-]/g, ''));
    for (const s of owns.services ?? []) account.services.add(sidKey(s));
    this.twilioAccounts.set(sidKey(sid), account);
    return this;
  }

  /** A Meta access token of an app (its App Secret), and the Page or WhatsApp number it reaches. */
  meta(token: string, grant: MetaGrant): this {
    this.metaTokens.set(token, [...(this.metaTokens.get(token) ?? []), grant]);
    return this;
  }

  /** A Google service account whose key Google accepts. */
  google(serviceAccountJson: string): this {
    const key = JSON.parse(serviceAccountJson) as { client_email: string; private_key: string };
    this.googleKeys.set(key.client_email, key.private_key);
    return this;
  }

  /** Makes the credentials of an account as an owner enters them own what it names. */
  grant(provider: string, config: Record<string, unknown>): this {
    const text = (k: string) => (typeof config[k] === 'string' ? (config[k] as string) : undefined);
    switch (provider) {
      case 'twilio':
        return this.twilio(text('account_sid')!, text('auth_token')!, {
          numbers: [text('phone_number')].filter((n): n is string => Boolean(n)),
          services: [text('messaging_service_sid')].filter((n): n is string => Boolean(n)),
        });
      case 'messenger':
        return this.meta(text('page_access_token')!, {
          appSecret: text('app_secret')!,
          page: { id: text('page_id')! },
        });
      case 'instagram':
        return this.meta(text('access_token')!, {
          appSecret: text('app_secret')!,
          page: { id: `page-of-${text('instagram_account_id')}`, instagram: text('instagram_account_id') },
        });
      case 'whatsapp':
        return this.meta(text('access_token')!, {
          appSecret: text('app_secret')!,
          whatsapp: { phone_number_id: text('phone_number_id')!, waba_id: text('waba_id') ?? null },
        });
      case 'google_rcs': {
        const key = config.service_account_json;
        return this.google(typeof key === 'string' ? key : JSON.stringify(key));
      }
      default:
        throw new Error(`no fake owner for ${provider}`);
    }
  }

  /** `GET …/2010-04-01/Accounts/{Sid}/IncomingPhoneNumbers.json`, or null when the path is another. */
  incomingNumbers(req: OwnerRequest): OwnerReply | null {
    const match = /\/2010-04-01\/Accounts\/([^/]+)\/IncomingPhoneNumbers\.json$/.exec(req.url.pathname);
    if (!match || req.method !== 'GET') return null;
    const account = this.twilioAuth(req, match[1]!);
    if (!account) return twilioError(401, 20003, 'Authenticate');
    const wanted = req.url.searchParams.get('PhoneNumber');
    const numbers = [...account.numbers].filter((n) => !wanted || n === wanted);
    return {
      status: 200,
      json: {
        incoming_phone_numbers: numbers.map((n, i) => ({
          sid: `PN${String(i).padStart(32, '0')}`,
          account_sid: match[1],
          phone_number: n,
          friendly_name: n,
          capabilities: { sms: true, mms: true, voice: true },
        })),
        page: 0,
        page_size: 20,
        next_page_uri: null,
      },
    };
  }

  /** `GET /v1/Services/{Sid}` of Twilio's Messaging API, or null when the path is another. */
  messagingService(req: OwnerRequest): OwnerReply | null {
    const match = /^\/v1\/Services\/(MG\w+)$/.exec(req.url.pathname);
    if (!match || req.method !== 'GET') return null;
    const sid = this.basicSid(req);
    const account = sid ? this.twilioAuth(req, sid) : null;
    if (!account || !sid) return twilioError(401, 20003, 'Authenticate');
    if (!account.services.has(sidKey(match[1]!)))
      return twilioError(404, 20404, `The requested resource /Services/${match[1]} was not found`);
    return { status: 200, json: { sid: match[1], account_sid: sid, friendly_name: 'Front desk' } };
  }

  /** The Graph API's `/me`, `/{id}` and `/{id}/phone_numbers`, or null when the path is another. */
  graph(req: OwnerRequest): OwnerReply | null {
    const match = /^\/v[\d.]+\/(me|\d+)(\/phone_numbers)?$/.exec(req.url.pathname);
    if (!match || req.method !== 'GET') return null;
    const token =
      req.headers.authorization?.replace(/^Bearer /, '') ?? req.url.searchParams.get('access_token');
    const grants = token ? this.metaTokens.get(token) : undefined;
    if (!token || !grants) return badToken();
    const proof = req.url.searchParams.get('appsecret_proof');
    const proven = grants.filter(
      (g) => !proof || proof === createHmac('sha256', g.appSecret).update(token).digest('hex'),
    );
    if (proven.length === 0) return badProof();
    const [node, edge] = [match[1]!, match[2]];
    if (node === 'me') {
      const page = proven.find((g) => g.page)?.page;
      if (!page) return { status: 200, json: { id: `user-of-${token.slice(-4)}`, name: 'A person' } };
      return {
        status: 200,
        json: {
          id: page.id,
          name: 'A Page',
          ...(page.instagram ? { instagram_business_account: { id: page.instagram } } : {}),
        },
      };
    }
    if (edge) {
      const numbers = proven.flatMap((g) =>
        g.whatsapp?.waba_id === node ? [g.whatsapp.phone_number_id] : [],
      );
      if (numbers.length === 0) return unreachable(node);
      return {
        status: 200,
        json: {
          data: numbers.map((id) => ({
            id,
            display_phone_number: '+61 491 570 006',
            verified_name: 'A business',
          })),
          paging: { cursors: { before: 'QVFI', after: 'QVFI' } },
        },
      };
    }
    if (!proven.some((g) => g.whatsapp?.phone_number_id === node)) return unreachable(node);
    return {
      status: 200,
      json: { id: node, display_phone_number: '+61 491 570 006', verified_name: 'A business' },
    };
  }

  /** Google's OAuth token endpoint (JWT bearer grant), or null when the request is another. */
  async googleToken(req: OwnerRequest): Promise<OwnerReply | null> {
    if (req.method !== 'POST' || !req.url.pathname.endsWith('/token')) return null;
    const assertion = new URLSearchParams(req.text).get('assertion') ?? '';
    const refused = {
      status: 400,
      json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
    };
    try {
      const issuer = decodeJwt(assertion).iss ?? '';
      const key = this.googleKeys.get(issuer);
      if (!key) return refused;
      await jwtVerify(assertion, createPublicKey(key), { issuer });
    } catch {
      return refused;
    }
    return {
      status: 200,
      json: { access_token: 'ya29.fake-access-token', expires_in: 3599, token_type: 'Bearer' },
    };
  }

  private basicSid(req: OwnerRequest): string | null {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return null;
    return Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0] ?? null;
  }

  /** The account the request's Basic credentials open, when they are for the account in the path. */
  private twilioAuth(req: OwnerRequest, pathSid: string): TwilioAccount | null {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return null;
    const [sid, token] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    if (!sid || !token || sidKey(sid) !== sidKey(pathSid)) return null;
    const account = this.twilioAccounts.get(sidKey(sid));
    return account?.tokens.has(token) ? account : null;
  }
}

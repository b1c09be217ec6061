/**
 * Twilio's number and account resources on a fake server, in their documented wire format (2010-04-01 API):
 *
 * - `POST /Accounts.json` (FriendlyName) makes a subaccount of the account whose Basic credentials ask,
 *   answering `sid`, `auth_token`, `friendly_name`, `owner_account_sid`, `status`;
 * - `GET /Accounts/{Sid}/AvailablePhoneNumbers/{Country}/{Local|Mobile}.json` (AreaCode, InLocality,
 *   Contains, SmsEnabled, PageSize) lists `available_phone_numbers` with `phone_number`, `friendly_name`,
 *   `locality`, `region`, `iso_country` and `capabilities: { voice, SMS, MMS }`;
 * - `POST /Accounts/{Sid}/IncomingPhoneNumbers.json` (PhoneNumber, SmsUrl, VoiceUrl…) buys one of them;
 * - `DELETE /Accounts/{Sid}/IncomingPhoneNumbers/{PN sid}.json` releases it (204);
 * - `POST /Accounts/{Sid}.json` with Status=closed closes a subaccount.
 *
 * Requests are answered only for credentials of the account in the path or of its parent (401, code 20003,
 * otherwise). Plain data and functions, so the server's tests and the browser tests share it.
 */
export type FakeNumber = {
  phone_number: string;
  friendly_name: string;
  locality: string | null;
  region: string | null;
  iso_country: string;
  type: 'Local' | 'Mobile';
  capabilities: { voice: boolean; SMS: boolean; MMS: boolean };
};

export type Bought = {
  sid: string;
  account_sid: string;
  phone_number: string;
  form: Record<string, string>;
  released: boolean;
};

type Account = {
  sid: string;
  auth_token: string;
  parent: string | null;
  friendly_name: string;
  status: string;
};

export type FakeAnswer = { status: number; json?: unknown };

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export class TwilioNumbersFake {
  readonly accounts = new Map<string, Account>();
  readonly stock: FakeNumber[] = [];
  readonly bought: Bought[] = [];
  /** Every search asked, with its query. */
  readonly searches: { account: string; country: string; type: string; query: Record<string, string> }[] = [];
  private made = 0;

  /** The platform's own (main) account. */
  constructor(main: { sid: string; auth_token: string }) {
    this.accounts.set(main.sid, { ...main, parent: null, friendly_name: 'Platform', status: 'active' });
  }

  /** Numbers for sale. */
  offer(...numbers: FakeNumber[]): this {
    this.stock.push(...numbers);
    return this;
  }

  subaccounts(): Account[] {
    return [...this.accounts.values()].filter((a) => a.parent);
  }

  /** The answer to a request, or null when it is none of these resources. */
  answer(req: {
    method: string;
    url: URL;
    authorization?: string;
    form: URLSearchParams;
  }): FakeAnswer | null {
    const path = req.url.pathname.replace(/^.*\/2010-04-01/, '');
    const caller = this.caller(req.authorization);
    const refused: FakeAnswer = { status: 401, json: { code: 20003, message: 'Authenticate', status: 401 } };
    if (path === '/Accounts.json' && req.method === 'POST') {
      if (!caller) return refused;
      this.made++;
      const sub: Account = {
        sid: `AC${hex(this.made, 32)}`,
        auth_token: hex(this.made * 7919, 32),
        parent: caller.sid,
        friendly_name: req.form.get('FriendlyName') ?? 'SubAccount',
        status: 'active',
      };
      this.accounts.set(sub.sid, sub);
      return {
        status: 201,
        json: {
          sid: sub.sid,
          auth_token: sub.auth_token,
          friendly_name: sub.friendly_name,
          owner_account_sid: caller.sid,
          status: 'active',
          type: 'Full',
        },
      };
    }
    const match = /^\/Accounts\/(AC\w+)(\.json|\/.*)$/.exec(path);
    if (!match) return null;
    const account = this.accounts.get(match[1]!);
    const rest = match[2]!;
    if (!account || !caller || (caller.sid !== account.sid && account.parent !== caller.sid)) return refused;

    if (rest === '.json' && req.method === 'POST') {
      if (req.form.get('Status')) account.status = req.form.get('Status')!;
      return { status: 200, json: { sid: account.sid, status: account.status } };
    }
    const search = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/(Local|Mobile)\.json$/.exec(rest);
    if (search && req.method === 'GET') {
      const [, country, type] = search;
      const q = Object.fromEntries(req.url.searchParams);
      this.searches.push({ account: account.sid, country: country!, type: type!, query: q });
      const held = new Set(this.bought.filter((b) => !b.released).map((b) => b.phone_number));
      const found = this.stock.filter(
        (n) =>
          n.iso_country === country &&
          n.type === type &&
          !held.has(n.phone_number) &&
          (!q.AreaCode || n.phone_number.startsWith(`+1${q.AreaCode}`)) &&
          (!q.InLocality || n.locality?.toLowerCase() === q.InLocality.toLowerCase()) &&
          (!q.Contains || n.phone_number.includes(q.Contains.replace(/\*/g, ''))) &&
          (q.SmsEnabled !== 'true' || n.capabilities.SMS),
      );
      const size = Number(q.PageSize ?? 50);
      return {
        status: 200,
        json: {
          uri: req.url.pathname,
          available_phone_numbers: found.slice(0, size).map(({ type: _type, ...n }) => ({
            ...n,
            lata: null,
            rate_center: null,
            latitude: null,
            longitude: null,
            postal_code: null,
            address_requirements: 'none',
            beta: false,
          })),
        },
      };
    }
    if (rest === '/IncomingPhoneNumbers.json' && req.method === 'POST') {
      const phone = req.form.get('PhoneNumber') ?? '';
      const offered = this.stock.find((n) => n.phone_number === phone);
      if (!offered || this.bought.some((b) => b.phone_number === phone && !b.released))
        return {
          status: 400,
          json: { code: 21422, message: `PhoneNumber ${phone} is not available.`, status: 400 },
        };
      const sid = `PN${hex(this.bought.length + 1, 32)}`;
      this.bought.push({
        sid,
        account_sid: account.sid,
        phone_number: phone,
        form: Object.fromEntries(req.form),
        released: false,
      });
      return {
        status: 201,
        json: {
          sid,
          account_sid: account.sid,
          phone_number: phone,
          friendly_name: offered.friendly_name,
          sms_url: req.form.get('SmsUrl'),
          voice_url: req.form.get('VoiceUrl'),
          capabilities: { voice: true, sms: true, mms: offered.capabilities.MMS },
        },
      };
    }
    const release = /^\/IncomingPhoneNumbers\/(PN\w+)\.json$/.exec(rest);
    if (release && req.method === 'DELETE') {
      const held = this.bought.find(
        (b) => b.sid === release[1] && b.account_sid === account.sid && !b.released,
      );
      if (!held) return { status: 404, json: { code: 20404, message: 'Not found', status: 404 } };
      held.released = true;
      return { status: 204 };
    }
    return null;
  }

  private caller(authorization: string | undefined): Account | undefined {
    if (!authorization?.startsWith('Basic ')) return undefined;
    const [sid, token] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
    const account = sid ? this.accounts.get(sid) : undefined;
    return account && account.auth_token === token && account.status === 'active' ? account : undefined;
  }
}

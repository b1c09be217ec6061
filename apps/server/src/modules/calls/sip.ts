import { createCipheriv, randomBytes, randomInt } from 'node:crypto';
import { channelAccounts, sipCredentials, users } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { type TwilioCredentials, twilioApi } from '../../channels/twilio/api.ts';
import { compactId, VOICE_PATHS } from '../../channels/twilio/voice.ts';
import type { Account } from '../../channels/types.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { type BusinessActor, requireBusiness } from '../../plugins/auth.ts';
import { locationAccount, saveAccountFields } from '../channels/accounts.ts';
import { findLocation } from '../locations/service.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'config'>;
type Twilio = Account<'twilio'>;
type List<K extends string, T> = { [key in K]?: T[] };

// Ids begin with their creation time: their random ends tell apart two made at the same moment.
/** The location's SIP domain name at Twilio: unique, and stable for the location. */
const domainName = (locationId: string) => `switchboard-${compactId(locationId).slice(-20)}`;
/** A person's login name on the domain. */
const usernameOf = (userId: string) => `u${compactId(userId).slice(-20)}`;

/** A password Twilio accepts for a SIP credential: 20 characters with upper case, lower case and digits. */
function newPassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789'];
  const all = sets.join('');
  const chars = sets.map((set) => set[randomInt(set.length)]!);
  while (chars.length < 20) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** The password for the browser: AES-256-GCM with the person's key, a fresh nonce, their iv as additional data. */
export function sealForBrowser(secret: string, user: { client_key: string; client_iv: string }) {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(user.client_key, 'hex'), nonce);
  cipher.setAAD(Buffer.from(user.client_iv, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { ciphertext: ciphertext.toString('base64'), nonce: nonce.toString('base64') };
}

/**
 * The location's SIP domain (desk phones register on it and call through it) and the credential list its
 * people's logins are in, both mapped for registrations and calls: found when made before, made otherwise.
 */
async function ensureDomain(ctx: Ctx, account: Twilio, creds: TwilioCredentials) {
  const c = account.config;
  if (c.sip_domain_sid && c.sip_domain && c.sip_credential_list_sid)
    return { domain: c.sip_domain, listSid: c.sip_credential_list_sid };
  const name = domainName(account.row.location_id);
  const address = `${name}.sip.twilio.com`;
  const domains = await twilioApi<List<'domains', { sid: string; domain_name: string }>>(
    creds,
    'GET',
    '/SIP/Domains.json',
  );
  const domain =
    domains.domains?.find((d) => d.domain_name === address) ??
    (await twilioApi<{ sid: string; domain_name: string }>(
      creds,
      'POST',
      '/SIP/Domains.json',
      new URLSearchParams({
        DomainName: address,
        FriendlyName: name,
        VoiceUrl: `${ctx.config.publicUrl}${VOICE_PATHS.outgoing}`,
        VoiceMethod: 'POST',
        SipRegistration: 'true',
      }),
    ));
  const lists = await twilioApi<List<'credential_lists', { sid: string; friendly_name: string }>>(
    creds,
    'GET',
    '/SIP/CredentialLists.json',
  );
  const list =
    lists.credential_lists?.find((l) => l.friendly_name === name) ??
    (await twilioApi<{ sid: string }>(
      creds,
      'POST',
      '/SIP/CredentialLists.json',
      new URLSearchParams({ FriendlyName: name }),
    ));
  for (const kind of ['Registrations', 'Calls']) {
    const path = `/SIP/Domains/${encodeURIComponent(domain.sid)}/Auth/${kind}/CredentialListMappings.json`;
    const mapped = await twilioApi<List<'contents', { sid: string }>>(creds, 'GET', path);
    if (!mapped.contents?.some((m) => m.sid === list.sid))
      await twilioApi(creds, 'POST', path, new URLSearchParams({ CredentialListSid: list.sid }));
  }
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(channelAccounts)
      .where(eq(channelAccounts.id, account.row.id))
      .for('update');
    await saveAccountFields(tx, ctx.config.encryptionKey, row ?? account.row, {
      sip_domain_sid: domain.sid,
      sip_domain: address,
      sip_credential_list_sid: list.sid,
    });
  });
  return { domain: address, listSid: list.sid };
}

async function callingAccount(ctx: Ctx, a: BusinessActor, locationId: string): Promise<Twilio> {
  const location = await findLocation(ctx.db, a, locationId);
  const account = await locationAccount(ctx.db, ctx.config.encryptionKey, location.id, 'twilio');
  if (!account?.config.twiml_app_sid)
    throw new AppError(
      'unprocessable',
      'Calling is not set up for this location yet: the owner sets it up under Settings → Channels & forms.',
    );
  return account;
}

/**
 * `POST /user/sip`: the signed-in person's desk phone login at a location, on its Twilio SIP domain (made the
 * first time). The password is answered once, when the login is made or `reset`, sealed for their browser.
 */
export async function deskPhoneLogin(ctx: Ctx, input: { location_id: string; reset?: boolean }) {
  const a = requireBusiness(ctx.actor);
  const account = await callingAccount(ctx, a, input.location_id);
  const [user] = await ctx.db
    .select({ client_key: users.client_key, client_iv: users.client_iv })
    .from(users)
    .where(eq(users.id, a.user_id));
  const creds: TwilioCredentials = {
    base: ctx.config.providers.twilioApiBase,
    timeoutMs: ctx.config.providers.timeoutMs,
    account_sid: account.config.account_sid,
    auth_token: account.config.auth_token,
  };
  const { domain, listSid } = await ensureDomain(ctx, account, creds);
  const mine = and(
    eq(sipCredentials.user_id, a.user_id),
    eq(sipCredentials.location_id, account.row.location_id),
  );
  const [existing] = await ctx.db.select().from(sipCredentials).where(mine);
  const answer = (username: string, password: string | null) => ({
    location_id: account.row.location_id,
    server: domain,
    username,
    password: password && user ? sealForBrowser(password, user) : null,
  });
  if (existing && existing.domain === domain && !input.reset) return answer(existing.username, null);

  const password = newPassword();
  const username = usernameOf(a.user_id);
  const base = `/SIP/CredentialLists/${encodeURIComponent(listSid)}/Credentials`;
  const known = await twilioApi<List<'credentials', { sid: string; username: string }>>(
    creds,
    'GET',
    `${base}.json`,
  );
  const found = known.credentials?.find((c) => c.username === username);
  const credential = found
    ? await twilioApi<{ sid: string }>(
        creds,
        'POST',
        `${base}/${encodeURIComponent(found.sid)}.json`,
        new URLSearchParams({ Password: password }),
      )
    : await twilioApi<{ sid: string }>(
        creds,
        'POST',
        `${base}.json`,
        new URLSearchParams({ Username: username, Password: password }),
      );
  await ctx.db
    .insert(sipCredentials)
    .values({
      business_id: a.business_id,
      location_id: account.row.location_id,
      user_id: a.user_id,
      domain,
      username,
      credential_sid: credential.sid,
    })
    .onConflictDoUpdate({
      target: [sipCredentials.user_id, sipCredentials.location_id],
      set: { domain, username, credential_sid: credential.sid, updated_at: new Date() },
    });
  return answer(username, password);
}

/** `GET /user/me/sip-status`: whether the person has a desk phone login at the location, and its last call. */
export async function deskPhoneStatus(ctx: Ctx, locationId: string) {
  const a = requireBusiness(ctx.actor);
  const location = await findLocation(ctx.db, a, locationId);
  const [login] = await ctx.db
    .select()
    .from(sipCredentials)
    .where(and(eq(sipCredentials.user_id, a.user_id), eq(sipCredentials.location_id, location.id)));
  return {
    location_id: location.id,
    has_credentials: Boolean(login),
    server: login?.domain ?? null,
    username: login?.username ?? null,
    last_call_at: login?.last_call_at?.toISOString() ?? null,
  };
}

/**
 * The person and location a desk phone's SIP address belongs to (`sip:username@domain`), noting that the
 * phone is in use; null for an address that is no login of ours.
 */
export async function deskPhoneOwner(
  db: Ctx['db'],
  address: string | undefined,
): Promise<{ user_id: string; location_id: string; business_id: string } | null> {
  const match = /^sip:([^@;]+)@([^;>]+)/i.exec(address ?? '');
  if (!match) return null;
  const [login] = await db
    .update(sipCredentials)
    .set({ last_call_at: new Date() })
    .where(and(eq(sipCredentials.username, match[1]!), eq(sipCredentials.domain, match[2]!.toLowerCase())))
    .returning();
  return login
    ? { user_id: login.user_id, location_id: login.location_id, business_id: login.business_id }
    : null;
}

/** The SIP addresses of the location's desk phones, rung with its browsers. */
export async function deskPhonesAt(db: Ctx['db'], locationId: string): Promise<string[]> {
  const logins = await db.select().from(sipCredentials).where(eq(sipCredentials.location_id, locationId));
  return logins.map((l) => `sip:${l.username}@${l.domain}`);
}

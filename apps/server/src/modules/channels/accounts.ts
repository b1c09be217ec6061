import { channelAccounts, type Db, type DbOrTx, sipCredentials } from '@switchboard/db';
import {
  CHANNELS_OF,
  type ChannelAccount,
  type CreateChannelRequest,
  describeProblems,
  isUuid,
  type ListChannelsQuery,
  type PageOf,
  type Provider,
  ProviderConfig,
  type ProviderConfigOf,
  SECRET_FIELDS,
  type UpdateChannelRequest,
} from '@switchboard/shared';
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { uuidv7 } from 'uuidv7';
import type { z } from 'zod';
import { addressOf, PROVIDER_NAMES } from '../../channels/catalogue.ts';
import type { Account, AccountRow } from '../../channels/types.ts';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { decryptJson, encryptJson, maskSecret } from '../../lib/crypto.ts';
import { type BusinessActor, requireOwner } from '../../plugins/auth.ts';
import { findLocation } from '../locations/service.ts';
import {
  assertLocationFree,
  disconnectDisplaced,
  displacedProblem,
  proveOwnership,
  settleClaim,
} from './claims.ts';

/** A connected account as the routes answer it (the wire form is the shared `ChannelAccountJson`). */
export type ChannelAccountDto = z.output<typeof ChannelAccount>;

type Ctx = { db: Db; config: Pick<Config, 'encryptionKey' | 'publicUrl' | 'providers'> };
type ActorCtx = Ctx & Pick<Context, 'actor'>;

const MANAGE = 'manage channels';
/** Binds an account's sealed secrets to its row. */
export const aad = (id: string) => `channel_account:${id}`;

/** Caches and derived values kept in the public config that are not part of what a person enters. */
const INTERNAL_CONFIG = new Set(['whatsapp_templates', 'templates_synced_at']);

/**
 * The account with its secrets decrypted. The ciphertext is bound to the stored row id (its one spelling, as
 * the database returns it), so it only opens on the row it was written for; throws when it cannot be read.
 */
/** Decrypted credentials per key, account and version: an account's secrets are decrypted once per change. */
const opened = new WeakMap<Buffer, LRUCache<string, Record<string, string>>>();

export function openAccount<P extends Provider>(key: Buffer, row: AccountRow): Account<P> {
  let memo = opened.get(key);
  if (!memo) {
    memo = new LRUCache({ max: 5000 });
    opened.set(key, memo);
  }
  const version = `${row.id}:${row.updated_at.getTime()}:${row.secrets_encrypted ?? ''}`;
  let secrets = memo.get(version);
  if (!secrets) {
    secrets = row.secrets_encrypted
      ? decryptJson<Record<string, string>>(key, row.secrets_encrypted, aad(row.id))
      : {};
    memo.set(version, secrets);
  }
  return {
    row,
    provider: row.provider as P,
    config: { ...row.config, ...secrets } as ProviderConfigOf[P],
  };
}

export type Warn = (detail: Record<string, unknown>, message: string) => void;

/**
 * The rows that can be opened. One unreadable row (a changed ENCRYPTION_KEY, a damaged value) fails only
 * itself: it is reported and skipped, so a webhook lookup or a list that also matches it still works.
 */
export function openAccounts<P extends Provider>(key: Buffer, rows: AccountRow[], warn: Warn): Account<P>[] {
  const accounts: Account<P>[] = [];
  for (const row of rows) {
    try {
      accounts.push(openAccount<P>(key, row));
    } catch (error) {
      warn(
        { account_id: row.id, business_id: row.business_id, err: error },
        'channel account credentials cannot be decrypted; skipped',
      );
    }
  }
  return accounts;
}

const UNREADABLE =
  'The stored credentials of this account cannot be read. Enter them again and save to reconnect it.';

function split(provider: Provider, config: Record<string, unknown>) {
  const secrets: Record<string, unknown> = {};
  const open: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) {
    if (v === undefined) continue;
    if (SECRET_FIELDS[provider].includes(k)) secrets[k] = v;
    else open[k] = v;
  }
  if (provider === 'google_rcs' && typeof secrets.service_account_json === 'string') {
    // The service account's email is not secret and tells a person which key is installed.
    open.service_account_email = (
      JSON.parse(secrets.service_account_json) as { client_email: string }
    ).client_email;
  }
  return { open, secrets };
}

/** The webhook URLs to paste into the provider's console. */
export function webhookUrls(publicUrl: string, provider: Provider): Record<string, string> {
  switch (provider) {
    case 'twilio':
      return {
        messaging_url: `${publicUrl}/webhooks/twilio/messaging`,
        status_callback_url: `${publicUrl}/webhooks/twilio/messaging/status`,
        // Set on the number by "Set up calling"; shown for setting it by hand.
        voice_url: `${publicUrl}/webhooks/twilio/voice/incoming`,
      };
    case 'whatsapp':
    case 'messenger':
    case 'instagram':
      return { callback_url: `${publicUrl}/webhooks/meta` };
    case 'google_rcs':
      return { webhook_url: `${publicUrl}/webhooks/google-rcs` };
    default: {
      const never: never = provider;
      return never;
    }
  }
}

export function toChannelJson(ctx: Pick<Ctx, 'config'>, row: AccountRow): ChannelAccountDto {
  const provider = row.provider as Provider;
  let account: Pick<Account, 'config'>;
  let problem: string | null = null;
  try {
    account = openAccount(ctx.config.encryptionKey, row);
  } catch {
    account = { config: row.config as Account['config'] };
    problem = UNREADABLE;
  }
  const config: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(account.config as Record<string, unknown>)) {
    if (INTERNAL_CONFIG.has(k)) continue;
    config[k] = SECRET_FIELDS[provider].includes(k) ? maskSecret(String(v)) : v;
  }
  // Every field is answered, null when unset, so a settings form can rely on the shape.
  for (const k of Object.keys(ProviderConfig[provider].shape)) config[k] ??= null;
  const keyJson = (account.config as Partial<ProviderConfigOf['google_rcs']>).service_account_json;
  if (provider === 'google_rcs' && keyJson) {
    const key = JSON.parse(keyJson) as { private_key_id?: string };
    config.service_account_json = maskSecret(key.private_key_id ?? 'service-account-key');
  }
  return {
    id: row.id,
    business_id: row.business_id,
    location_id: row.location_id,
    provider,
    channels: CHANNELS_OF[provider],
    address: row.address,
    config,
    webhooks: webhookUrls(ctx.config.publicUrl, provider),
    problem: displacedProblem(row) ?? problem,
    verified_at: row.verified_at,
    disconnected_at: row.displaced_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function findOwnAccount(db: DbOrTx, businessId: string, id: string): Promise<AccountRow> {
  if (!isUuid(id)) throw notFound('Channel');
  const [row] = await db
    .select()
    .from(channelAccounts)
    .where(and(eq(channelAccounts.id, id), eq(channelAccounts.business_id, businessId)));
  if (!row) throw notFound('Channel');
  return row;
}

function invalid(error: z.ZodError): AppError {
  const { message, fields } = describeProblems(
    error.issues.map((i) => ({ path: ['config', ...i.path], message: i.message })),
  );
  return new AppError('validation_failed', message, { details: { fields } });
}

async function audit(
  tx: DbOrTx,
  actor: { business_id: string; user_id: string },
  action: string,
  row: AccountRow,
) {
  await recordAudit(tx, actor, action, {
    target: row.id,
    detail: { provider: row.provider, location_id: row.location_id, address: row.address },
  });
}

export async function listChannels(
  { actor, ...ctx }: ActorCtx,
  query: z.infer<typeof ListChannelsQuery>,
): Promise<PageOf<ChannelAccountDto>> {
  const a = requireOwner(actor, MANAGE);
  const where = and(
    eq(channelAccounts.business_id, a.business_id),
    query.location_id
      ? isUuid(query.location_id)
        ? eq(channelAccounts.location_id, query.location_id)
        : sql`false`
      : undefined,
    query.provider ? eq(channelAccounts.provider, query.provider) : undefined,
  );
  const [total] = await ctx.db.select({ n: count() }).from(channelAccounts).where(where);
  const rows = await ctx.db
    .select()
    .from(channelAccounts)
    .where(where)
    .orderBy(asc(channelAccounts.created_at), asc(channelAccounts.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return {
    items: rows.map((r) => toChannelJson(ctx, r)),
    page: query.page,
    page_size: query.page_size,
    total: total?.n ?? 0,
  };
}

export async function getChannel({ actor, ...ctx }: ActorCtx, id: string): Promise<ChannelAccountDto> {
  const a = requireOwner(actor, MANAGE);
  return toChannelJson(ctx, await findOwnAccount(ctx.db, a.business_id, id));
}

export async function createChannel(
  { actor, ...ctx }: ActorCtx,
  input: CreateChannelRequest,
): Promise<ChannelAccountDto> {
  const a = requireOwner(actor, MANAGE);
  const location = await findLocation(ctx.db, a, input.location_id);
  const id = uuidv7();
  await assertLocationFree(ctx.db, { id, provider: input.provider, location_id: location.id });
  // Asked before anything is reserved: an address is only ever held on the provider's word.
  const ownership = await proveOwnership(ctx.config, input.provider, input.config);
  const row = await ctx.db.transaction(async (tx) => {
    const address = addressOf(input.provider, input.config);
    const { open, secrets } = split(input.provider, input.config);
    const now = new Date();
    const displaced = await settleClaim(tx, {
      id,
      business_id: a.business_id,
      provider: input.provider,
      location_id: location.id,
      address,
      config: open,
      proven: ownership.proven,
    });
    await disconnectDisplaced(tx, displaced, now);
    const [created] = await tx
      .insert(channelAccounts)
      .values({
        id,
        business_id: a.business_id,
        location_id: location.id,
        provider: input.provider,
        address,
        config: open,
        secrets_encrypted: encryptJson(ctx.config.encryptionKey, secrets, aad(id)),
        verified_at: ownership.proven ? now : null,
      })
      .returning();
    await audit(tx, a, 'channel.connect', created!);
    return created!;
  });
  return toChannelJson(ctx, row);
}

export async function updateChannel(
  { actor, ...ctx }: ActorCtx,
  id: string,
  input: UpdateChannelRequest,
): Promise<ChannelAccountDto> {
  const a = requireOwner(actor, MANAGE);
  const change = await accountChange(ctx, a, id, input);
  await assertLocationFree(ctx.db, {
    id: change.existing.id,
    provider: change.provider,
    location_id: change.locationId,
  });
  const ownership = await proveOwnership(ctx.config, change.provider, change.config);
  const row = await ctx.db.transaction(async (tx) => {
    // Read again inside: the account may have changed while the provider was asked.
    const existing = await findOwnAccount(tx, a.business_id, id);
    if (existing.updated_at.getTime() !== change.existing.updated_at.getTime())
      throw new AppError('conflict', 'This account was changed meanwhile. Reload it and save again.');
    const { provider, config, locationId } = change;
    const address = addressOf(provider, config);
    const { open, secrets } = split(provider, config);
    const now = new Date();
    const displaced = await settleClaim(tx, {
      id: existing.id,
      business_id: a.business_id,
      provider,
      location_id: locationId,
      address,
      config: open,
      proven: ownership.proven,
    });
    await disconnectDisplaced(tx, displaced, now);
    // Cached template lists stay with the account unless the WhatsApp Business account changed.
    if (provider === 'whatsapp' && existing.config.waba_id === open.waba_id) {
      for (const k of ['whatsapp_templates', 'templates_synced_at']) {
        if (existing.config[k] !== undefined) open[k] = existing.config[k];
      }
    }
    const [updated] = await tx
      .update(channelAccounts)
      .set({
        location_id: locationId,
        address,
        config: open,
        secrets_encrypted: encryptJson(ctx.config.encryptionKey, secrets, aad(existing.id)),
        verified_at: ownership.proven ? now : null,
        // Details the provider confirmed (or an RCS agent nobody proved) connect it again.
        displaced_at: null,
      })
      .where(eq(channelAccounts.id, existing.id))
      .returning();
    await audit(tx, a, 'channel.update', updated!);
    return updated!;
  });
  return toChannelJson(ctx, row);
}

/** The account as a change would leave it: the stored values with the patch on top, checked. */
async function accountChange(
  ctx: Pick<Ctx, 'db' | 'config'>,
  a: BusinessActor,
  id: string,
  input: UpdateChannelRequest,
) {
  const existing = await findOwnAccount(ctx.db, a.business_id, id);
  const provider = existing.provider as Provider;
  // Unreadable credentials are replaced whole: the patch must then carry every secret again.
  let current: Record<string, unknown>;
  try {
    current = openAccount(ctx.config.encryptionKey, existing).config as Record<string, unknown>;
  } catch {
    current = { ...existing.config };
  }
  const patch = input.config ?? {};
  // A secret left out, or sent back exactly as it was answered (masked), keeps its stored value.
  const merged: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current)) if (!INTERNAL_CONFIG.has(k)) merged[k] = v;
  delete merged.service_account_email;
  for (const [k, v] of Object.entries(patch)) {
    if (
      SECRET_FIELDS[provider].includes(k) &&
      (v === undefined || (typeof v === 'string' && v.startsWith('••••')))
    )
      continue;
    merged[k] = v;
  }
  const parsed = ProviderConfig[provider].safeParse(merged);
  if (!parsed.success) throw invalid(parsed.error);
  const config = parsed.data as Record<string, unknown>;
  const locationId = input.location_id
    ? (await findLocation(ctx.db, a, input.location_id)).id
    : existing.location_id;
  return { existing, provider, config, locationId };
}

/**
 * Stores fields the app set up itself on an account (calling's TwiML App and API Key), checked against the
 * provider's schema like any change, secrets encrypted.
 */
export async function saveAccountFields(
  db: DbOrTx,
  key: Buffer,
  row: AccountRow,
  fields: Record<string, unknown>,
): Promise<AccountRow> {
  const provider = row.provider as Provider;
  const current = openAccount(key, row).config as Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...current, ...fields })) if (!INTERNAL_CONFIG.has(k)) merged[k] = v;
  delete merged.service_account_email;
  const config = ProviderConfig[provider].parse(merged) as Record<string, unknown>;
  const { open, secrets } = split(provider, config);
  for (const k of INTERNAL_CONFIG) if (row.config[k] !== undefined) open[k] = row.config[k];
  const [updated] = await db
    .update(channelAccounts)
    .set({ config: open, secrets_encrypted: encryptJson(key, secrets, aad(row.id)) })
    .where(eq(channelAccounts.id, row.id))
    .returning();
  return updated!;
}

export async function deleteChannel(
  { actor, ...ctx }: ActorCtx,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const a = requireOwner(actor, MANAGE);
  await ctx.db.transaction(async (tx) => {
    const existing = await findOwnAccount(tx, a.business_id, id);
    await tx.delete(channelAccounts).where(eq(channelAccounts.id, existing.id));
    // Desk phone logins live on the account's SIP domain: they go with it.
    if (existing.provider === 'twilio')
      await tx.delete(sipCredentials).where(eq(sipCredentials.location_id, existing.location_id));
    await audit(tx, a, 'channel.disconnect', existing);
  });
  return { id, deleted: true };
}

/** The location's connected account for a provider, decrypted, or null. */
export async function locationAccount<P extends Provider>(
  db: DbOrTx,
  key: Buffer,
  locationId: string,
  provider: P,
): Promise<Account<P> | null> {
  const [row] = await db
    .select()
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.location_id, locationId),
        eq(channelAccounts.provider, provider),
        // An account another business proved its address away from sends nothing.
        isNull(channelAccounts.displaced_at),
      ),
    )
    // With several accounts of one provider, the first connected sends (and starts conversations).
    .orderBy(asc(channelAccounts.created_at), asc(channelAccounts.id))
    .limit(1);
  if (!row) return null;
  try {
    return openAccount<P>(key, row);
  } catch {
    throw new AppError('unprocessable', `${PROVIDER_NAMES[provider]}: ${UNREADABLE}`);
  }
}

/**
 * Accounts of a provider whose address (or another config field) has this value, decrypted: those the provider
 * confirmed first, and never one disconnected because another business proved the address is theirs.
 */
export async function accountsWhere<P extends Provider>(
  db: DbOrTx,
  key: Buffer,
  provider: P,
  match: { address?: string | null; configField?: [string, string | null | undefined] },
  warn: Warn,
): Promise<Account<P>[]> {
  const conditions = [];
  if (match.address) conditions.push(eq(channelAccounts.address, match.address));
  const [field, value] = match.configField ?? [];
  if (field && value) conditions.push(sql`${channelAccounts.config} ->> ${field} = ${value}`);
  if (conditions.length === 0) return [];
  const rows = await db
    .select()
    .from(channelAccounts)
    .where(
      and(eq(channelAccounts.provider, provider), isNull(channelAccounts.displaced_at), or(...conditions)),
    )
    .orderBy(sql`${channelAccounts.verified_at} is null`, asc(channelAccounts.created_at));
  return openAccounts<P>(key, rows, warn);
}

/** Every account of these providers, decrypted (the Meta verification handshake checks them all). */
export async function accountsOf(
  db: DbOrTx,
  key: Buffer,
  providers: Provider[],
  warn: Warn,
): Promise<Account[]> {
  const rows = await db
    .select()
    .from(channelAccounts)
    .where(and(sql`${channelAccounts.provider} in ${providers}`, isNull(channelAccounts.displaced_at)));
  return openAccounts(key, rows, warn);
}

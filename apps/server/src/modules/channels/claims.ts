import { channelAccounts, type DbOrTx } from '@switchboard/db';
import type { Provider, ProviderConfigOf } from '@switchboard/shared';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { OWNED_FIELD, PROVIDER_NAMES } from '../../channels/catalogue.ts';
import { rcsOwnership } from '../../channels/google-rcs/ownership.ts';
import { type MetaAccount, metaOwnership } from '../../channels/meta/ownership.ts';
import { twilioOwnership } from '../../channels/twilio/ownership.ts';
import type { AccountRow, Ownership } from '../../channels/types.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';

/**
 * Asks the provider whether the credentials own the address the account would receive on, before anything
 * is stored (see each provider's `ownership.ts`). Refusals and an unreachable provider throw.
 */
export function proveOwnership(
  config: Pick<Config, 'providers'>,
  provider: Provider,
  values: Record<string, unknown>,
): Promise<Ownership> {
  const { providers } = config;
  const timeoutMs = providers.timeoutMs;
  switch (provider) {
    case 'twilio':
      return twilioOwnership(
        { base: providers.twilioApiBase, messagingBase: providers.twilioMessagingApiBase, timeoutMs },
        values as ProviderConfigOf['twilio'],
      );
    case 'whatsapp':
    case 'messenger':
    case 'instagram':
      return metaOwnership({ base: providers.graphApiBase, timeoutMs }, {
        provider,
        config: values,
      } as MetaAccount);
    case 'google_rcs':
      return rcsOwnership(
        { tokenUrl: providers.googleTokenUrl, timeoutMs },
        values as ProviderConfigOf['google_rcs'],
      );
    default: {
      const never: never = provider;
      return never;
    }
  }
}

export type Claim = {
  id: string;
  business_id: string;
  provider: Provider;
  location_id: string;
  address: string | null;
  /** The public config (the one-business field, e.g. the Twilio Account SID, is in it). */
  config: Record<string, unknown>;
  proven: boolean;
};

/**
 * Settles who may hold the claim's address (and its provider account: a Twilio Account SID, a WhatsApp Business
 * Account) before it is stored, inside the caller's transaction. Claims of one provider are taken one at a
 * time, so two businesses proving the same number at once cannot both win.
 *
 * - Another account of this location and provider: 409 (edit that one).
 * - The same address in this business: 409 (webhooks could not tell the two apart).
 * - Held by another business whose provider confirmed it: 409 for anyone else.
 * - Held by another business never confirmed (saved before the check, or a Google RCS agent): a confirmed
 *   claim takes it and the holder is disconnected (returned, to be marked); an unconfirmed one shares it —
 *   each webhook then goes to the account whose secret signed it.
 */
export async function settleClaim(tx: DbOrTx, claim: Claim): Promise<AccountRow[]> {
  const name = PROVIDER_NAMES[claim.provider];
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`switchboard:channel-claims:${claim.provider}`}))`,
  );
  await assertLocationFree(tx, claim);

  const owned = OWNED_FIELD[claim.provider];
  const ownedValue = owned ? claim.config[owned.field] : undefined;
  const byOwnedField =
    owned && typeof ownedValue === 'string'
      ? sql`${channelAccounts.config} ->> ${owned.field} = ${ownedValue}`
      : undefined;
  const byAddress = claim.address ? eq(channelAccounts.address, claim.address) : undefined;
  if (!byOwnedField && !byAddress) return [];
  const holders = await tx
    .select()
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.provider, claim.provider),
        ne(channelAccounts.id, claim.id),
        isNull(channelAccounts.displaced_at),
        or(byAddress, byOwnedField),
      ),
    );

  const displaced: AccountRow[] = [];
  for (const holder of holders) {
    const sameAddress = claim.address !== null && holder.address === claim.address;
    if (holder.business_id === claim.business_id) {
      // One business may use one provider account at several locations, but not one address twice.
      if (sameAddress)
        throw new AppError(
          'conflict',
          `${claim.address} is already connected as a ${name} account elsewhere.`,
        );
      continue;
    }
    const what = sameAddress
      ? `${claim.address}`
      : `This ${owned?.label ?? `${name} account`} (${String(ownedValue)})`;
    if (holder.verified_at) {
      throw new AppError(
        'conflict',
        `${what} is connected to another business, and ${name} confirmed it is theirs. Each can belong to one business only; if it is yours, remove it from the other business first.`,
      );
    }
    if (claim.proven) displaced.push(holder);
    else if (!sameAddress)
      throw new AppError(
        'conflict',
        `${what} is already connected by another business. Each ${owned?.label ?? 'account'} can belong to one business only.`,
      );
  }
  return displaced;
}

/** One account per provider per location: a second is refused (asked again before the provider is). */
export async function assertLocationFree(
  db: DbOrTx,
  claim: Pick<Claim, 'id' | 'provider' | 'location_id'>,
): Promise<void> {
  const [sameLocation] = await db
    .select({ id: channelAccounts.id })
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.location_id, claim.location_id),
        eq(channelAccounts.provider, claim.provider),
        ne(channelAccounts.id, claim.id),
      ),
    );
  if (sameLocation) {
    throw new AppError(
      'conflict',
      `This location already has a ${PROVIDER_NAMES[claim.provider]} account connected. Edit that one.`,
    );
  }
}

/**
 * Disconnects accounts whose address a business proved is its own, and tells their owners in their audit
 * log; the channels screen says so on the account (`problem`).
 */
export async function disconnectDisplaced(tx: DbOrTx, displaced: AccountRow[], at: Date): Promise<void> {
  for (const holder of displaced) {
    await tx.update(channelAccounts).set({ displaced_at: at }).where(eq(channelAccounts.id, holder.id));
    // Written against the holder's business, by nobody of theirs: the other business is not named.
    await recordAudit(tx, { business_id: holder.business_id, user_id: null }, 'channel.displaced', {
      target: holder.id,
      detail: { provider: holder.provider, location_id: holder.location_id, address: holder.address },
    });
  }
}

/** What the owner of a disconnected account reads on it. */
export function displacedProblem(
  row: Pick<AccountRow, 'provider' | 'address' | 'displaced_at'>,
): string | null {
  if (!row.displaced_at) return null;
  const name = PROVIDER_NAMES[row.provider as Provider];
  const day = row.displaced_at.toISOString().slice(0, 10);
  return `Disconnected on ${day}: another business showed ${name} that ${row.address ?? 'this address'} is theirs, so it no longer receives or sends here. If it is yours, enter this account's details again so ${name} can confirm them, or delete it.`;
}

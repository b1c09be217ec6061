import {
  businesses,
  channelAccounts,
  type DbOrTx,
  locations,
  platformNumbers,
  platformTwilioAccounts,
  sipCredentials,
} from '@switchboard/db';
import {
  type AvailableNumbersQuery,
  type BuyNumberRequest,
  isUuid,
  type PlatformNumberSchema,
  type RegistrationState,
} from '@switchboard/shared';
import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { uuidv7 } from 'uuidv7';
import type { z } from 'zod';
import {
  type AvailableNumber,
  closeSubaccount,
  createSubaccount,
  provisionTwilioNumber,
  releaseTwilioNumber,
  searchAvailableNumbers,
  TwilioApiError,
  type TwilioCredentials,
} from '../../channels/twilio/api.ts';
import type { Config } from '../../config.ts';
import type { Context, Deps } from '../../context.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { numbersRelease } from '../../jobs/definitions/numbers-release.ts';
import { recordAudit } from '../../lib/audit.ts';
import { decryptJson, encryptJson } from '../../lib/crypto.ts';
import { requireOwner, requireSuperAdmin } from '../../plugins/auth.ts';
import { findLocation } from '../locations/service.ts';
import { aad, type ChannelAccountDto, toChannelJson, webhookUrls } from './accounts.ts';
import { assertLocationFree, disconnectDisplaced, settleClaim } from './claims.ts';
import { twilioFailure } from './purchase-number.ts';
import {
  describeRegistration,
  initialRegistration,
  NUMBER_TYPE,
  type NumberCountry,
} from './registration.ts';

type NumberRow = typeof platformNumbers.$inferSelect;
/** Subscriptions Stripe reports as over for good: the business's numbers go back. */
const ENDED = ['canceled', 'incomplete_expired'];
const SEARCH_PAGE = 20;

/** The platform Twilio account, or 422 saying numbers cannot be bought here. */
function platformCredentials(config: Pick<Config, 'twilioPlatform' | 'providers'>): TwilioCredentials {
  if (!config.twilioPlatform)
    throw new AppError(
      'unprocessable',
      'Numbers cannot be bought on this Switchboard: no platform Twilio account is set up. Connect your own Twilio account instead.',
    );
  return {
    base: config.providers.twilioApiBase,
    timeoutMs: config.providers.timeoutMs,
    account_sid: config.twilioPlatform.accountSid,
    auth_token: config.twilioPlatform.authToken,
  };
}

/**
 * A Twilio refusal of the platform's own credentials is the operator's to fix, not the owner's: said so, rather
 * than the own-account advice to check the SID and token in channel settings.
 */
function platformFailure(error: unknown): AppError {
  if (error instanceof TwilioApiError && (error.code === '20003' || error.status === 401))
    return new AppError(
      'unprocessable',
      "Switchboard's Twilio account was refused (Twilio error 20003). Ask whoever runs Switchboard to check its Twilio settings, then try again.",
    );
  return twilioFailure(error);
}

const subaccountAad = (businessId: string) => `platform_twilio_account:${businessId}`;

/** As people write the number in its own country: (415) 555-0100, 0491 570 156. */
function formatted(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatNational() ?? phone;
}

function availableDto(n: AvailableNumber, country: string) {
  const caps = n.capabilities ?? {};
  return {
    phone_number: n.phone_number,
    formatted: formatted(n.phone_number),
    locality: n.locality || null,
    region: n.region || null,
    iso_country: n.iso_country ?? country,
    capabilities: {
      sms: Boolean(caps.SMS ?? caps.sms),
      voice: Boolean(caps.voice),
      mms: Boolean(caps.MMS ?? caps.mms),
    },
  };
}

export function platformNumberDto(row: NumberRow): z.output<typeof PlatformNumberSchema> {
  const state = row.registration as RegistrationState;
  return {
    id: row.id,
    location_id: row.location_id,
    phone_number: row.phone_number,
    formatted: formatted(row.phone_number),
    iso_country: row.iso_country,
    number_type: row.number_type,
    registration: { state, ...describeRegistration(row.iso_country, state) },
    released_at: row.released_at,
    created_at: row.created_at,
  };
}

/** `GET /channels/numbers/available`: SMS-capable numbers for sale, through the platform account. */
export async function searchNumbers(
  { actor, db, config }: Context,
  query: z.output<typeof AvailableNumbersQuery>,
) {
  const a = requireOwner(actor, 'buy phone numbers');
  const platform = platformCredentials(config);
  await findLocation(db, a, query.location_id);
  const type = NUMBER_TYPE[query.country as NumberCountry];
  try {
    const found = await searchAvailableNumbers(platform, {
      country: query.country,
      type: type === 'local' ? 'Local' : 'Mobile',
      area_code: query.area_code,
      contains: query.contains,
      in_locality: query.in_locality,
      page_size: SEARCH_PAGE,
    });
    return {
      country: query.country,
      number_type: type,
      items: found.map((n) => availableDto(n, query.country)),
    };
  } catch (error) {
    throw platformFailure(error);
  }
}

/** The business's subaccount: made with its first purchase, reused after. */
async function businessSubaccount(
  { db, config, log }: Pick<Deps, 'db' | 'config' | 'log'>,
  platform: TwilioCredentials,
  businessId: string,
): Promise<TwilioCredentials> {
  const creds = (row: typeof platformTwilioAccounts.$inferSelect): TwilioCredentials => ({
    ...platform,
    account_sid: row.account_sid,
    auth_token: decryptJson<{ auth_token: string }>(
      config.encryptionKey,
      row.auth_token_encrypted,
      subaccountAad(businessId),
    ).auth_token,
  });
  const [held] = await db
    .select()
    .from(platformTwilioAccounts)
    .where(eq(platformTwilioAccounts.business_id, businessId));
  if (held) return creds(held);
  const made = await createSubaccount(platform, `Switchboard business ${businessId}`);
  const [stored] = await db
    .insert(platformTwilioAccounts)
    .values({
      business_id: businessId,
      account_sid: made.sid,
      auth_token_encrypted: encryptJson(
        config.encryptionKey,
        { auth_token: made.auth_token },
        subaccountAad(businessId),
      ),
    })
    .onConflictDoNothing()
    .returning();
  if (stored) return creds(stored);
  // Another purchase of the business made one at the same moment: that one is kept, this one closed.
  await closeSubaccount(platform, made.sid).catch((error: unknown) =>
    log.warn({ err: error, account_sid: made.sid }, 'closing a spare Twilio subaccount failed'),
  );
  const [winner] = await db
    .select()
    .from(platformTwilioAccounts)
    .where(eq(platformTwilioAccounts.business_id, businessId));
  return creds(winner!);
}

/** The subaccount's credentials for a business that has one (numbers to release). */
async function heldSubaccount(deps: Pick<Deps, 'db' | 'config' | 'log'>, businessId: string) {
  return businessSubaccount(deps, platformCredentials(deps.config), businessId);
}

/**
 * `POST /channels/numbers`: buys the number in the business's subaccount with its texts, delivery reports and
 * calls pointed here, and connects it as the location's Twilio account, so it works exactly as an owner's own.
 */
export async function buyNumber(
  { actor, ...deps }: Context,
  input: z.output<typeof BuyNumberRequest>,
): Promise<{ number: z.output<typeof PlatformNumberSchema>; channel: ChannelAccountDto }> {
  const a = requireOwner(actor, 'buy phone numbers');
  const platform = platformCredentials(deps.config);
  const location = await findLocation(deps.db, a, input.location_id);
  const country = parsePhoneNumberFromString(input.phone_number)?.country;
  if (!country || !(country in NUMBER_TYPE))
    throw new AppError(
      'validation_failed',
      'Numbers can be bought in AU, US, CA or GB: choose one from the search.',
    );
  const accountId = uuidv7();
  // Asked before anything is bought: one Twilio account per location.
  await assertLocationFree(deps.db, { id: accountId, provider: 'twilio', location_id: location.id });

  let sub: TwilioCredentials;
  let bought: { sid: string; phone_number: string };
  const hooks = webhookUrls(deps.config.publicUrl, 'twilio');
  try {
    sub = await businessSubaccount(deps, platform, a.business_id);
    bought = await provisionTwilioNumber(sub, {
      phone_number: input.phone_number,
      sms_url: hooks.messaging_url!,
      status_callback: hooks.status_callback_url!,
      voice_url: hooks.voice_url!,
    });
  } catch (error) {
    throw platformFailure(error);
  }

  try {
    const { row, number } = await deps.db.transaction(async (tx) => {
      const now = new Date();
      const config = {
        account_sid: sub.account_sid,
        phone_number: bought.phone_number,
        phone_number_sid: bought.sid,
      };
      const displaced = await settleClaim(tx, {
        id: accountId,
        business_id: a.business_id,
        provider: 'twilio',
        location_id: location.id,
        address: bought.phone_number,
        config,
        proven: true,
      });
      await disconnectDisplaced(tx, displaced, now);
      const [created] = await tx
        .insert(channelAccounts)
        .values({
          id: accountId,
          business_id: a.business_id,
          location_id: location.id,
          provider: 'twilio',
          address: bought.phone_number,
          config,
          secrets_encrypted: encryptJson(
            deps.config.encryptionKey,
            { auth_token: sub.auth_token },
            aad(accountId),
          ),
          verified_at: now,
        })
        .returning();
      const [number] = await tx
        .insert(platformNumbers)
        .values({
          business_id: a.business_id,
          location_id: location.id,
          channel_account_id: accountId,
          account_sid: sub.account_sid,
          phone_number: bought.phone_number,
          phone_number_sid: bought.sid,
          iso_country: country,
          number_type: NUMBER_TYPE[country as NumberCountry],
          registration: initialRegistration(country),
        })
        .returning();
      await tx
        .update(locations)
        .set({ phone_number: bought.phone_number })
        .where(eq(locations.id, location.id));
      await recordAudit(tx, a, 'location.number.purchase', {
        target: location.id,
        detail: { phone_number: bought.phone_number, provider: 'twilio_platform', sid: bought.sid },
      });
      return { row: created!, number: number! };
    });
    return { number: platformNumberDto(number), channel: toChannelJson(deps, row) };
  } catch (error) {
    // Bought but not kept here: it goes back rather than being paid for by nobody's location.
    await releaseTwilioNumber(sub, bought.sid).catch((e: unknown) =>
      deps.log.error({ err: e, sid: bought.sid }, 'releasing a number that could not be stored failed'),
    );
    throw error;
  }
}

/** `GET /channels/numbers?location_id=`: the location's platform numbers still held. */
export async function listPlatformNumbers({ actor, db, config }: Context, locationId: string) {
  const a = requireOwner(actor, 'manage channels');
  const location = await findLocation(db, a, locationId);
  const rows = await db
    .select()
    .from(platformNumbers)
    .where(and(eq(platformNumbers.location_id, location.id), isNull(platformNumbers.released_at)))
    .orderBy(platformNumbers.created_at);
  return {
    available: Boolean(config.twilioPlatform),
    sandbox: config.sandbox,
    items: rows.map(platformNumberDto),
  };
}

/** Stops holding a released number here: its account goes (desk phone logins with it), the location forgets it. */
async function forget(
  tx: DbOrTx,
  row: NumberRow,
  actor: { business_id: string; user_id: string | null },
  why: string,
) {
  if (row.channel_account_id) {
    await tx.delete(channelAccounts).where(eq(channelAccounts.id, row.channel_account_id));
    if (row.location_id)
      await tx.delete(sipCredentials).where(eq(sipCredentials.location_id, row.location_id));
  }
  if (row.location_id)
    await tx
      .update(locations)
      .set({ phone_number: null })
      .where(and(eq(locations.id, row.location_id), eq(locations.phone_number, row.phone_number)));
  const [released] = await tx
    .update(platformNumbers)
    .set({ released_at: new Date(), release_error: null, channel_account_id: null })
    .where(eq(platformNumbers.id, row.id))
    .returning();
  await recordAudit(tx, actor, 'location.number.release', {
    target: row.location_id ?? row.id,
    detail: { phone_number: row.phone_number, sid: row.phone_number_sid, why },
  });
  return released!;
}

/** `DELETE /channels/numbers/{id}`: gives the number back to Twilio; the location stops receiving on it. */
export async function releaseNumber({ actor, ...deps }: Context, id: string) {
  const a = requireOwner(actor, 'release phone numbers');
  if (!isUuid(id)) throw notFound('Number');
  const [row] = await deps.db
    .select()
    .from(platformNumbers)
    .where(
      and(
        eq(platformNumbers.id, id),
        eq(platformNumbers.business_id, a.business_id),
        isNull(platformNumbers.released_at),
      ),
    );
  if (!row) throw notFound('Number');
  try {
    await releaseTwilioNumber(await heldSubaccount(deps, a.business_id), row.phone_number_sid);
  } catch (error) {
    throw platformFailure(error);
  }
  const released = await deps.db.transaction((tx) => forget(tx, row, a, 'owner'));
  return platformNumberDto(released);
}

/**
 * The release job: a business whose subscription has ended gives back every platform number; any business gives
 * back those whose channel account is gone. A Twilio failure is noted on the number and retried with the job.
 */
export async function releaseUnheldNumbers(deps: Pick<Deps, 'db' | 'config' | 'log'>, businessId: string) {
  const [business] = await deps.db
    .select({ status: businesses.stripe_subscription_status })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!business) return 0;
  const ended = ENDED.includes(business.status ?? '');
  const rows = await deps.db
    .select()
    .from(platformNumbers)
    .where(
      and(
        eq(platformNumbers.business_id, businessId),
        isNull(platformNumbers.released_at),
        ended ? undefined : isNull(platformNumbers.channel_account_id),
      ),
    );
  if (rows.length === 0) return 0;
  const sub = await heldSubaccount(deps, businessId);
  let failed: unknown = null;
  for (const row of rows) {
    try {
      await releaseTwilioNumber(sub, row.phone_number_sid);
    } catch (error) {
      failed = error;
      const reason = error instanceof Error ? error.message : String(error);
      await deps.db
        .update(platformNumbers)
        .set({ release_error: reason })
        .where(eq(platformNumbers.id, row.id));
      continue;
    }
    const why = ended ? 'subscription ended' : 'channel removed';
    await deps.db.transaction((tx) => forget(tx, row, { business_id: businessId, user_id: null }, why));
    deps.log.info(
      { business_id: businessId, phone_number: row.phone_number, why },
      'released a platform number',
    );
  }
  if (failed) throw failed;
  return rows.length;
}

/** Businesses holding numbers they should not (ended subscription, channel gone): a release job each. */
export async function sweepUnheldNumbers(deps: Pick<Deps, 'db' | 'jobs' | 'config'>): Promise<number> {
  if (!deps.config.twilioPlatform) return 0;
  const found = await deps.db
    .selectDistinct({ business_id: platformNumbers.business_id })
    .from(platformNumbers)
    .innerJoin(businesses, eq(businesses.id, platformNumbers.business_id))
    .where(
      and(
        isNull(platformNumbers.released_at),
        or(isNull(platformNumbers.channel_account_id), inArray(businesses.stripe_subscription_status, ENDED)),
      ),
    );
  for (const { business_id } of found)
    await deps.jobs.send(numbersRelease, { business_id }, { singletonKey: business_id });
  return found.length;
}

/** `GET /admin/businesses/{id}/numbers`: an administrator sees every number the business bought, newest first. */
export async function listNumbersAsAdmin({ actor, db }: Pick<Context, 'actor' | 'db'>, businessId: string) {
  requireSuperAdmin(actor);
  if (!isUuid(businessId)) throw notFound('Business');
  const [business] = await db
    .select({ id: businesses.id })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!business) throw notFound('Business');
  const rows = await db
    .select({ n: platformNumbers, location_name: locations.name })
    .from(platformNumbers)
    .leftJoin(locations, eq(locations.id, platformNumbers.location_id))
    .where(eq(platformNumbers.business_id, businessId))
    .orderBy(desc(platformNumbers.created_at));
  return { items: rows.map((r) => ({ ...platformNumberDto(r.n), location_name: r.location_name })) };
}

/**
 * `PATCH /admin/numbers/{id}`: the operator, who submits a US number's A2P 10DLC brand and campaign with Twilio,
 * records where it stands there; the owner's Channels page then says what it means. Numbers of countries that
 * need no registration, and numbers given back, have nothing to record.
 */
export async function setRegistrationAsAdmin(
  { actor, db }: Pick<Context, 'actor' | 'db'>,
  id: string,
  registration: Exclude<RegistrationState, 'not_required'>,
) {
  const admin = requireSuperAdmin(actor);
  if (!isUuid(id)) throw notFound('Number');
  const [row] = await db.select().from(platformNumbers).where(eq(platformNumbers.id, id));
  if (!row) throw notFound('Number');
  if (row.released_at)
    throw new AppError(
      'unprocessable',
      `${formatted(row.phone_number)} was given back to Twilio: it has nothing to register.`,
    );
  if (initialRegistration(row.iso_country) === 'not_required')
    throw fieldError(
      'unprocessable',
      'registration',
      `${formatted(row.phone_number)} texts without registration in its country (${row.iso_country}): there is nothing to record.`,
    );
  const [saved] = await db.transaction(async (tx) => {
    const updated = await tx
      .update(platformNumbers)
      .set({ registration })
      .where(eq(platformNumbers.id, row.id))
      .returning();
    // Written against the business, so its owner sees who recorded it.
    await recordAudit(
      tx,
      { business_id: row.business_id, user_id: admin.user_id },
      'admin.number.registration',
      {
        target: row.location_id ?? row.id,
        detail: { phone_number: row.phone_number, from: row.registration, to: registration },
      },
    );
    return updated;
  });
  const [location] = saved!.location_id
    ? await db.select({ name: locations.name }).from(locations).where(eq(locations.id, saved!.location_id))
    : [];
  return { ...platformNumberDto(saved!), location_name: location?.name ?? null };
}

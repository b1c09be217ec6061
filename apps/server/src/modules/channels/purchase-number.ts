import { channelAccounts, locations, platformNumbers } from '@switchboard/db';
import type { PurchaseNumberRequest } from '@switchboard/shared';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { z } from 'zod';
import { buyTwilioNumber, findAvailableNumber, TwilioApiError } from '../../channels/twilio/api.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { TransientSendError } from '../../lib/provider-errors.ts';
import { requireOwner } from '../../plugins/auth.ts';
import { findLocation } from '../locations/service.ts';
import { type ChannelAccountDto, locationAccount, toChannelJson, webhookUrls } from './accounts.ts';
import { disconnectDisplaced, settleClaim } from './claims.ts';

export type PurchaseNumberResult = {
  location_id: string;
  phone_number: string;
  provider: 'twilio' | 'sandbox';
  channel: ChannelAccountDto | null;
};

/** The fictional range set aside for drama and tests (ACMA): +61 491 570 000–999. */
export const SANDBOX_PREFIX = '+61491570';

export function twilioFailure(error: unknown): AppError {
  if (error instanceof TransientSendError || (error instanceof TwilioApiError && error.transient)) {
    return new AppError('service_unavailable', 'Twilio is not answering right now. Try again in a minute.');
  }
  if (error instanceof TwilioApiError) return new AppError('unprocessable', error.message);
  throw error;
}

/**
 * Gives a location a phone number. With the location's Twilio account: finds an SMS-capable local number
 * (a mobile one where the country has no SMS-capable local numbers, as in Australia), buys it and points its
 * messaging webhook and status callback here. In sandbox mode without one: the next free fictional number.
 */
export async function purchaseNumber(
  { actor, ...app }: Context,
  locationId: string,
  input: z.infer<typeof PurchaseNumberRequest>,
): Promise<PurchaseNumberResult> {
  const a = requireOwner(actor, 'buy phone numbers');
  const location = await findLocation(app.db, a, locationId);
  const account = await locationAccount(app.db, app.config.encryptionKey, location.id, 'twilio');

  if (!account) {
    if (!app.config.sandbox) {
      throw new AppError(
        'unprocessable',
        'Connect a Twilio account for this location first, then buy a number.',
      );
    }
    const phone = await app.db.transaction(async (tx) => {
      // Sandbox numbers are the business's own: the simulator plays every text and call within the business
      // (its locations), so two businesses may hold the same fictional number. One draw at a time per business,
      // so two of its locations never draw the same one.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`switchboard:sandbox-numbers:${a.business_id}`}))`,
      );
      const taken = await tx
        .select({ phone: locations.phone_number })
        .from(locations)
        .where(
          and(eq(locations.business_id, a.business_id), like(locations.phone_number, `${SANDBOX_PREFIX}%`)),
        );
      const used = new Set(taken.map((t) => t.phone));
      let free: string | undefined;
      for (let n = 0; n < 1000 && !free; n++) {
        const candidate = `${SANDBOX_PREFIX}${String(n).padStart(3, '0')}`;
        if (!used.has(candidate)) free = candidate;
      }
      if (!free) throw new AppError('conflict', 'Every sandbox number is in use at this business.');
      await tx.update(locations).set({ phone_number: free }).where(eq(locations.id, location.id));
      await recordAudit(tx, a, 'location.number.assign', {
        target: location.id,
        detail: { phone_number: free, provider: 'sandbox' },
      });
      return free;
    });
    return { location_id: location.id, phone_number: phone, provider: 'sandbox', channel: null };
  }

  const c = account.config;
  // A number bought through the platform account: more numbers come through "Buy a number", tracked there.
  const [platformHeld] = await app.db
    .select({ id: platformNumbers.id })
    .from(platformNumbers)
    .where(and(eq(platformNumbers.channel_account_id, account.row.id), isNull(platformNumbers.released_at)));
  if (platformHeld)
    throw new AppError(
      'conflict',
      "This location's number was bought through Switchboard. Release it first to get another one.",
    );
  const creds = {
    base: app.config.providers.twilioApiBase,
    timeoutMs: app.config.providers.timeoutMs,
    account_sid: c.account_sid,
    auth_token: c.auth_token,
  };
  const existing = location.phone_number ?? c.phone_number;
  const country = input.country ?? (existing && parsePhoneNumberFromString(existing)?.country) ?? 'AU';
  const hooks = webhookUrls(app.config.publicUrl, 'twilio');
  let bought: { sid: string; phone_number: string };
  try {
    const search = { country, area_code: input.area_code, contains: input.contains };
    const number =
      (await findAvailableNumber(creds, { ...search, type: 'Local' })) ??
      (await findAvailableNumber(creds, { ...search, type: 'Mobile' }));
    if (!number) {
      throw new AppError(
        'unprocessable',
        `Twilio has no SMS-capable numbers available in ${country}${input.area_code ? ` with area code ${input.area_code}` : ''}. Try another area code.`,
      );
    }
    bought = await buyTwilioNumber(creds, {
      phone_number: number,
      sms_url: hooks.messaging_url!,
      status_callback: hooks.status_callback_url!,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw twilioFailure(error);
  }

  const row = await app.db.transaction(async (tx) => {
    await tx
      .update(locations)
      .set({ phone_number: bought.phone_number })
      .where(eq(locations.id, location.id));
    // Bought with the account's own credentials just now: Twilio has shown the number is the account's, and
    // anyone who entered it before without proof loses it.
    const now = new Date();
    const displaced = await settleClaim(tx, {
      id: account.row.id,
      business_id: account.row.business_id,
      provider: 'twilio',
      location_id: account.row.location_id,
      address: bought.phone_number,
      // Only the number is settled here: the account itself was settled when it was connected.
      config: {},
      proven: true,
    });
    await disconnectDisplaced(tx, displaced, now);
    const [updated] = await tx
      .update(channelAccounts)
      .set({
        address: bought.phone_number,
        config: sql`${channelAccounts.config} || ${JSON.stringify({ phone_number: bought.phone_number, phone_number_sid: bought.sid })}::jsonb`,
        verified_at: now,
      })
      .where(eq(channelAccounts.id, account.row.id))
      .returning();
    await recordAudit(tx, a, 'location.number.purchase', {
      target: location.id,
      detail: { phone_number: bought.phone_number, provider: 'twilio', sid: bought.sid },
    });
    return updated!;
  });
  return {
    location_id: location.id,
    phone_number: bought.phone_number,
    provider: 'twilio',
    channel: toChannelJson(app, row),
  };
}

import { callPresence, channelAccounts } from '@switchboard/db';
import { and, eq, gt } from 'drizzle-orm';
import { type TwilioCredentials, twilioApi } from '../../channels/twilio/api.ts';
import { VOICE_PATHS, voiceAccessToken, voiceIdentity } from '../../channels/twilio/voice.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { findOwnAccount, locationAccount, openAccount, saveAccountFields } from '../channels/accounts.ts';
import { findLocation } from '../locations/service.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'config'>;

/** How long a browser stays ringable after it last said it is available (it says so every minute). */
export const PRESENCE_SECONDS = 90;

const appName = (locationId: string) => `Switchboard calls ${locationId}`;

type TwilioList<K extends string, T> = { [key in K]?: T[] };

/**
 * "Set up calling" on a location's Twilio account, through Twilio's REST API: the TwiML App browsers place
 * calls through (Voice URL `…/voice/outgoing`), an API Key to sign their access tokens, and the number's Voice
 * URL (`…/voice/incoming`) with status callbacks. Running it again finds what it made (the App by name, the
 * Key kept in the account) and points them at this server again; nothing is made twice.
 */
export async function setUpCalling(ctx: Ctx, channelId: string) {
  const a = requireOwner(ctx.actor, 'set up calling');
  const row = await findOwnAccount(ctx.db, a.business_id, channelId);
  if (row.provider !== 'twilio')
    throw new AppError('unprocessable', 'Calling works through a Twilio account.');
  const account = openAccount<'twilio'>(ctx.config.encryptionKey, row);
  const number = account.config.phone_number;
  if (!number)
    throw new AppError(
      'unprocessable',
      'Add the Twilio phone number customers call before setting up calling.',
    );
  const creds: TwilioCredentials = {
    base: ctx.config.providers.twilioApiBase,
    timeoutMs: ctx.config.providers.timeoutMs,
    account_sid: account.config.account_sid,
    auth_token: account.config.auth_token,
  };
  const url = (path: string) => `${ctx.config.publicUrl}${path}`;
  const voice = (extra: Record<string, string>) =>
    new URLSearchParams({
      VoiceUrl: url(extra.VoiceUrl!),
      VoiceMethod: 'POST',
      StatusCallback: url(VOICE_PATHS.status),
      StatusCallbackMethod: 'POST',
      ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'VoiceUrl')),
    });

  // The TwiML App: found by its name, or made; either way pointed at this server.
  const found = await twilioApi<TwilioList<'applications', { sid: string }>>(
    creds,
    'GET',
    '/Applications.json',
    new URLSearchParams({ FriendlyName: appName(row.location_id) }),
  );
  const existingApp = found.applications?.[0]?.sid ?? account.config.twiml_app_sid ?? null;
  const twimlApp = existingApp
    ? await twilioApi<{ sid: string }>(
        creds,
        'POST',
        `/Applications/${encodeURIComponent(existingApp)}.json`,
        voice({ VoiceUrl: VOICE_PATHS.outgoing }),
      )
    : await twilioApi<{ sid: string }>(
        creds,
        'POST',
        '/Applications.json',
        voice({ VoiceUrl: VOICE_PATHS.outgoing, FriendlyName: appName(row.location_id) }),
      );

  // The API Key: its secret is only ever shown once, so a key already kept is used as it is.
  let key = { sid: account.config.api_key_sid ?? null, secret: account.config.api_key_secret ?? null };
  if (!key.sid || !key.secret) {
    const made = await twilioApi<{ sid: string; secret: string }>(
      creds,
      'POST',
      '/Keys.json',
      new URLSearchParams({ FriendlyName: appName(row.location_id) }),
    );
    key = { sid: made.sid, secret: made.secret };
  }

  // The number rings here.
  const numberSid =
    account.config.phone_number_sid ??
    (
      await twilioApi<TwilioList<'incoming_phone_numbers', { sid: string }>>(
        creds,
        'GET',
        '/IncomingPhoneNumbers.json',
        new URLSearchParams({ PhoneNumber: number }),
      )
    ).incoming_phone_numbers?.[0]?.sid;
  if (!numberSid) throw new AppError('unprocessable', `${number} is not a number of this Twilio account.`);
  await twilioApi(
    creds,
    'POST',
    `/IncomingPhoneNumbers/${encodeURIComponent(numberSid)}.json`,
    voice({ VoiceUrl: VOICE_PATHS.incoming }),
  );

  await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(channelAccounts)
      .where(eq(channelAccounts.id, row.id))
      .for('update');
    await saveAccountFields(tx, ctx.config.encryptionKey, locked ?? row, {
      twiml_app_sid: twimlApp.sid,
      api_key_sid: key.sid,
      api_key_secret: key.secret,
      phone_number_sid: numberSid,
    });
    await recordAudit(tx, a, 'channel.calling_set_up', {
      target: row.id,
      detail: { twiml_app_sid: twimlApp.sid },
    });
  });
  return {
    channel_id: row.id,
    location_id: row.location_id,
    twiml_app_sid: twimlApp.sid,
    phone_number: number,
  };
}

/**
 * `POST /twilio/generate-voice-token`: the Voice SDK token for the signed-in person at their selected location;
 * an identity that is not theirs there is refused.
 */
export async function voiceToken(ctx: Ctx, identity: string) {
  const a = requireBusiness(ctx.actor);
  if (!a.location_id) throw new AppError('unprocessable', 'Choose a location to take its calls.');
  const mine = voiceIdentity(a.user_id, a.location_id);
  if (identity !== mine) throw new AppError('forbidden', 'A phone can only be registered for yourself.');
  const account = await locationAccount(ctx.db, ctx.config.encryptionKey, a.location_id, 'twilio');
  const c = account?.config;
  if (!c?.twiml_app_sid || !c.api_key_sid || !c.api_key_secret) {
    throw new AppError(
      'unprocessable',
      'Calling is not set up for this location yet: the owner sets it up under Settings → Channels & forms.',
    );
  }
  return {
    identity: mine,
    token: voiceAccessToken({
      accountSid: c.account_sid,
      apiKeySid: c.api_key_sid,
      apiKeySecret: c.api_key_secret,
      twimlAppSid: c.twiml_app_sid,
      identity: mine,
    }),
  };
}

/**
 * `PUT /calls/presence`: the person is at their desk at the location (rung for its calls) or away. A browser
 * that is available says so again every minute; one that stops (closed, offline) is rung no more after
 * PRESENCE_SECONDS.
 */
export async function setPresence(ctx: Ctx, input: { location_id: string; available: boolean }) {
  const a = requireBusiness(ctx.actor);
  const location = await findLocation(ctx.db, a, input.location_id);
  const mine = and(eq(callPresence.user_id, a.user_id), eq(callPresence.location_id, location.id));
  if (!input.available) {
    await ctx.db.delete(callPresence).where(mine);
    return { location_id: location.id, available: false, until: null };
  }
  const until = new Date(Date.now() + PRESENCE_SECONDS * 1000);
  await ctx.db
    .insert(callPresence)
    .values({
      user_id: a.user_id,
      location_id: location.id,
      business_id: a.business_id,
      available_until: until,
    })
    .onConflictDoUpdate({
      target: [callPresence.user_id, callPresence.location_id],
      set: { available_until: until },
    });
  return { location_id: location.id, available: true, until: until.toISOString() };
}

/** `GET /calls/presence?location_id`: the people available for the location's calls now, as ids. */
export async function availableAt(ctx: Ctx, locationId: string) {
  const a = requireBusiness(ctx.actor);
  const location = await findLocation(ctx.db, a, locationId);
  const rows = await ctx.db
    .select({ user_id: callPresence.user_id })
    .from(callPresence)
    .where(and(eq(callPresence.location_id, location.id), gt(callPresence.available_until, new Date())));
  return { location_id: location.id, available: rows.map((r) => r.user_id) };
}

/**
 * `GET /calls/phone?location_id`: the phone a browser uses at a location. Twilio once calling is set up on the
 * location's account; else the sandbox phone in sandbox mode; else none, saying what is missing.
 */
export async function phoneSetup(ctx: Ctx, locationId: string) {
  const a = requireBusiness(ctx.actor);
  const location = await findLocation(ctx.db, a, locationId);
  const account = await locationAccount(ctx.db, ctx.config.encryptionKey, location.id, 'twilio');
  const c = account?.config;
  if (c?.twiml_app_sid && c.api_key_sid && c.api_key_secret) {
    return {
      location_id: location.id,
      provider: 'twilio' as const,
      number: c.phone_number ?? null,
      identity: voiceIdentity(a.user_id, location.id),
      reason: null,
    };
  }
  if (ctx.config.sandbox) {
    return {
      location_id: location.id,
      provider: 'sandbox' as const,
      number: location.phone_number,
      identity: null,
      reason: null,
    };
  }
  return {
    location_id: location.id,
    provider: null,
    number: null,
    identity: null,
    reason: account
      ? 'Calling is not set up for this location yet: the owner sets it up under Settings → Channels & forms.'
      : 'This location has no Twilio number to call through yet: the owner connects one under Settings → Channels & forms.',
  };
}

import { aiProfiles, businesses, locations, uploads, users } from '@switchboard/db';
import {
  CALL_RINGTONES,
  type CallRingtone,
  featureFlags,
  type MeLocation,
  UPLOADED_SOUND,
  type UpdateMeRequest,
  type UserMe,
} from '@switchboard/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { snoozedOpen, withoutSnoozed } from '../enquiries/counters.ts';
import { openableBusinesses } from './access.ts';

type UserCtx = Pick<Context, 'db' | 'actor'>;

/** The signed-in user with every business they can open (see `openableBusinesses`) and its locations, the selected ones flagged. */
export async function getMe({ db, actor }: UserCtx): Promise<UserMe> {
  const [user] = await db.select().from(users).where(eq(users.id, actor.user_id));
  if (!user) throw new AppError('session_expired', 'Your session has ended. Please log in again.');
  const memberships = await openableBusinesses(db, user.id);
  if (!actor.business_id || memberships.length === 0) {
    throw new AppError(
      'no_business',
      'Your account is not linked to any business. Ask the business owner to invite you.',
    );
  }
  const ids = memberships.map((m) => m.business.id);
  const locs = await db
    .select()
    .from(locations)
    .where(inArray(locations.business_id, ids))
    .orderBy(asc(locations.precedence), asc(locations.created_at));
  // The Open counts shown before the inbox loads its own agree with the Open list: snoozed ones are left out.
  const snoozed = await snoozedOpen(
    db,
    locs.map((l) => l.id),
  );
  const [profile] = await db
    .select({ done: aiProfiles.onboarding_completed })
    .from(aiProfiles)
    .where(eq(aiProfiles.business_id, actor.business_id));

  return {
    id: user.id,
    email: user.email,
    full_name: user.full_name,
    avatar: user.avatar,
    super_admin: user.super_admin,
    enable_notifications: user.enable_notifications,
    enable_enquiry_notification: user.enable_enquiry_notification,
    enable_message_notification: user.enable_message_notification,
    ringtone_enquiry: user.ringtone_enquiry,
    ringtone_message: user.ringtone_message,
    digest_minutes: user.digest_minutes,
    ringtone_call: (CALL_RINGTONES as readonly string[]).includes(user.ringtone_call ?? '')
      ? (user.ringtone_call as CallRingtone)
      : 'classic',
    send_on_enter: user.send_on_enter,
    assign_on_reply: user.assign_on_reply,
    ai_info: { onboarding_completed: profile?.done ?? false },
    feature_flags: featureFlags(
      memberships.find((m) => m.business.id === actor.business_id)?.business.feature_flags,
    ),
    mobile: user.mobile,
    mobile_verified: Boolean(user.mobile_verified_at),
    businesses: memberships.map(({ business: b, role, location_ids }) => ({
      id: b.id,
      name: b.name,
      owner_user_id: b.owner_user_id,
      role,
      is_owner: b.owner_user_id === user.id,
      image: b.image,
      timezone: b.timezone,
      country: b.country,
      website: b.website,
      site_origins: b.site_origins,
      industry: b.industry,
      plan: b.plan,
      subscription: b.plan,
      trial_end_date: b.trial_end_date?.toISOString() ?? null,
      subscription_past_due: b.subscription_past_due,
      next_invoice_attempt: b.next_invoice_attempt?.toISOString() ?? null,
      messages_sent_today: b.messages_sent_today,
      message_limit: b.message_limit,
      verified: b.verified,
      referral_code: b.referral_code,
      regulated: b.regulated && user.super_admin,
      selected: b.id === actor.business_id,
      locations: locs
        .filter((l) => l.business_id === b.id && (!location_ids || location_ids.includes(l.id)))
        .map(
          (l): MeLocation => ({
            id: l.id,
            name: l.name,
            address: l.address,
            precedence: l.precedence,
            phone_number: l.phone_number,
            email_address: l.email_address,
            selected: b.id === actor.business_id && l.id === actor.location_id,
            ...withoutSnoozed(
              {
                assigned_count_open: l.assigned_count_open,
                assigned_count_closed: l.assigned_count_closed,
                unassigned_count_open: l.unassigned_count_open,
                unassigned_count_closed: l.unassigned_count_closed,
              },
              snoozed.get(l.id),
            ),
          }),
        ),
    })),
  };
}

/** The longest sound a person may upload for their notifications, in bytes. */
export const SOUND_MAX_BYTES = 1024 * 1024;

/** An uploaded ringtone must be this person's own short audio file. */
async function checkSound(db: UserCtx['db'], userId: string, ringtone: string | null | undefined) {
  const id = ringtone ? UPLOADED_SOUND.exec(ringtone)?.[1] : undefined;
  if (!id) return;
  const [file] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.user_id, userId)));
  if (!file) throw new AppError('not_found', 'That sound was not found. Upload it again.');
  if (!file.content_type.startsWith('audio/'))
    throw new AppError('unprocessable', 'That file is not a sound. Choose an audio file (MP3, WAV or OGG).');
  if (file.size > SOUND_MAX_BYTES)
    throw new AppError('unprocessable', 'That sound is too long. Choose an audio file of at most 1 MB.');
}

export async function updateMe(ctx: UserCtx, patch: UpdateMeRequest) {
  await checkSound(ctx.db, ctx.actor.user_id, patch.ringtone_enquiry);
  await checkSound(ctx.db, ctx.actor.user_id, patch.ringtone_message);
  if (patch.digest_minutes != null) {
    const [owns] = await ctx.db
      .select({ id: businesses.id })
      .from(businesses)
      .where(eq(businesses.owner_user_id, ctx.actor.user_id))
      .limit(1);
    if (!owns)
      throw new AppError('owner_only', 'Only a business owner can have unanswered enquiries emailed.');
  }
  if (Object.keys(patch).length > 0)
    await ctx.db.update(users).set(patch).where(eq(users.id, ctx.actor.user_id));
  return getMe(ctx);
}

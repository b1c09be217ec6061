import { businesses, locations } from '@switchboard/db';
import {
  featureFlags,
  type SetupChecklistDto,
  type SetupItemDto,
  type SetupItemKey,
  type UpdateSetupRequest,
} from '@switchboard/shared';
import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { WIDGET_CHANNEL } from '../../channels/widget/replies.ts';
import type { Context } from '../../context.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { SANDBOX_PREFIX } from '../channels/purchase-number.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'config' | 'payments'>;

/** The origin of an address, or the address itself when it does not parse. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * The business's facts behind the checklist, in one statement: each item is an `exists` over the rows that
 * prove it, so the answer follows the data (a teammate removed, an FAQ deleted) and nothing is stored but the
 * owner putting the list away.
 */
async function businessFacts({ db, config }: Pick<Ctx, 'db' | 'config'>, businessId: string) {
  // Chats started from a page that is not this app's own (the chat page opened on its own records none):
  // the widget's loader names the page it runs on, so such a chat shows the snippet is on a website.
  const appOrigin = `${originOf(config.publicUrl)}/`;
  const [row] = await db
    .select({
      dismissed_at: businesses.setup_dismissed_at,
      feature_flags: businesses.feature_flags,
      payments: sql<boolean>`${businesses.stripe_account_id} is not null and ${businesses.stripe_charges_enabled}`,
      has_enquiries: sql<boolean>`exists (select 1 from enquiries e where e.business_id = ${businessId})`,
      // Through the business's website chats (fewer than its messages), then each one's own messages.
      chat: sql<boolean>`exists (
        select 1 from enquiries e
        where e.business_id = ${businessId} and e.channel = ${WIDGET_CHANNEL}
          and exists (
            select 1 from messages m
            where m.enquiry_id = e.id and m.direction = 'in' and m.meta ->> 'landing_page' is not null
              and left(m.meta ->> 'landing_page', ${appOrigin.length}) <> ${appOrigin}))`,
      team: sql<boolean>`(
        exists (
          select 1 from one_time_secrets s
          where s.business_id = ${businessId} and s.kind = 'invitation' and s.used_at is null
            and s.expires_at > now())
        or (select count(*) from business_members bm where bm.business_id = ${businessId}) > 1)`,
      assistant: sql<boolean>`(
        exists (select 1 from ai_faqs f where f.business_id = ${businessId} and f.status = 'active')
        or exists (select 1 from ai_documents d where d.business_id = ${businessId} and d.status <> 'failed'))`,
    })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  return row!;
}

/** Each location's part: its texting number (a Twilio account's, or a sandbox one), review link and hours. */
async function locationFacts({ db, config }: Pick<Ctx, 'db' | 'config'>, businessId: string) {
  // Spelled out with the outer table's name: drizzle leaves a one-table select's columns unqualified, which
  // the subquery would read as its own.
  const twilioNumber = sql<string | null>`(
    select coalesce("locations"."phone_number", ca.address) from channel_accounts ca
    where ca.location_id = "locations"."id" and ca.provider = 'twilio' and ca.displaced_at is null
    order by ca.created_at limit 1)`;
  const sandboxNumber = config.sandbox
    ? sql<
        string | null
      >`case when ${locations.phone_number} like ${`${SANDBOX_PREFIX}%`} then ${locations.phone_number} end`
    : sql<string | null>`null`;
  return db
    .select({
      id: locations.id,
      name: locations.name,
      twilio: twilioNumber,
      sandbox: sandboxNumber,
      review_link: sql<boolean>`coalesce(btrim(${locations.review_link}), '') <> ''`,
      hours: sql<boolean>`${locations.opening_hours} is not null`,
    })
    .from(locations)
    .where(eq(locations.business_id, businessId))
    .orderBy(asc(locations.precedence), asc(locations.created_at));
}

type Place = Awaited<ReturnType<typeof locationFacts>>[number];

/** `GET /business/setup`: what is done and what is left, for the features the business has on. */
export async function getSetup(ctx: Ctx): Promise<SetupChecklistDto> {
  const a = requireBusiness(ctx.actor);
  const [facts, places] = await Promise.all([
    businessFacts(ctx, a.business_id),
    locationFacts(ctx, a.business_id),
  ]);
  const flags = featureFlags(facts.feature_flags);
  // The reader's own location first: its number is the one they can watch a test text arrive at.
  const here = places.find((p) => p.id === a.location_id) ?? places[0] ?? null;
  const ordered = here ? [here, ...places.filter((p) => p !== here)] : places;
  const texting = ordered.find((p) => p.twilio?.startsWith('+') || p.sandbox);
  const firstWithout = (has: (p: Place) => boolean) => places.find((p) => !has(p)) ?? null;

  const item = (key: SetupItemKey, done: boolean, at: Place | null = here): SetupItemDto => ({
    key,
    done,
    location_id: at?.id ?? null,
  });
  const everywhere = (has: (p: Place) => boolean) => places.length > 0 && places.every(has);
  const items: SetupItemDto[] = [
    item(
      'number',
      places.some((p) => p.twilio || p.sandbox),
    ),
    item('chat', facts.chat),
    item('team', facts.team, null),
    ...(flags.assistant ? [item('assistant', facts.assistant, null)] : []),
    // A server that takes no card payments has nothing to connect.
    ...(flags.invoices && ctx.payments ? [item('payments', facts.payments, null)] : []),
    ...(flags.reviews
      ? [
          item(
            'review_link',
            everywhere((p) => p.review_link),
            firstWithout((p) => p.review_link) ?? here,
          ),
        ]
      : []),
    item(
      'hours',
      everywhere((p) => p.hours),
      firstWithout((p) => p.hours) ?? here,
    ),
  ];
  const number = texting
    ? {
        phone: (texting.sandbox ?? texting.twilio)!,
        location_id: texting.id,
        location_name: texting.name,
        sandbox: Boolean(texting.sandbox),
      }
    : null;
  return { items, number, has_enquiries: facts.has_enquiries, dismissed_at: facts.dismissed_at };
}

/** `PUT /business/setup`: the owner puts the checklist away (from the inbox) or brings it back (from Settings). */
export async function updateSetup(
  ctx: Ctx,
  input: z.infer<typeof UpdateSetupRequest>,
): Promise<SetupChecklistDto> {
  const a = requireOwner(ctx.actor, 'put the set-up checklist away or bring it back');
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(businesses)
      .set({
        setup_dismissed_at: input.dismissed ? sql`coalesce(${businesses.setup_dismissed_at}, now())` : null,
      })
      .where(eq(businesses.id, a.business_id));
    await recordAudit(tx, a, input.dismissed ? 'setup.dismiss' : 'setup.restore');
  });
  return getSetup(ctx);
}

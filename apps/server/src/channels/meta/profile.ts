import { channelAccounts, customers, enquiries } from '@switchboard/db';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { openAccount } from '../../modules/channels/accounts.ts';
import { toEnquiryRow } from '../../modules/enquiries/dto.ts';
import { GraphApiError, type GraphTarget, graphApi, graphTargetOf } from './graph.ts';

/**
 * Messenger and Instagram webhooks name the customer only by a page-scoped id. After their first message is
 * stored, a job asks Meta's User Profile API for their name, so the inbox shows a person rather than
 * "Unknown customer". It never holds up the webhook, and a refusal (no consent, a blocked business, missing
 * permissions) leaves the customer unnamed.
 */
export const PROFILE_QUEUE = 'meta.customer-profile';

export type ProfileJob = { account_id: string; external_id: string };

type ProfileProvider = 'messenger' | 'instagram';
const CHANNEL: Record<ProfileProvider, string> = { messenger: 'facebook', instagram: 'instagram' };

export const isProfileProvider = (provider: string): provider is ProfileProvider =>
  provider === 'messenger' || provider === 'instagram';

/** The customer's name and first name as Meta has them, or null when Meta gives none. */
export async function fetchMetaProfile(
  target: GraphTarget,
  provider: ProfileProvider,
  scopedId: string,
): Promise<{ name: string; first_name: string } | null> {
  const id = encodeURIComponent(scopedId);
  if (provider === 'messenger') {
    // https://developers.facebook.com/docs/messenger-platform/identity/user-profile
    const p = await graphApi<{ first_name?: string; last_name?: string }>(
      target,
      'GET',
      `/${id}?fields=first_name,last_name`,
    );
    const first = p.first_name?.trim() ?? '';
    const name = [first, p.last_name?.trim() ?? ''].filter(Boolean).join(' ');
    return name ? { name, first_name: first || name } : null;
  }
  // https://developers.facebook.com/docs/messenger-platform/instagram/features/user-profile
  const p = await graphApi<{ name?: string | null; username?: string | null }>(
    target,
    'GET',
    `/${id}?fields=name,username`,
  );
  const name = p.name?.trim() || (p.username?.trim() ? `@${p.username.trim()}` : '');
  return name ? { name, first_name: p.name?.trim().split(/\s+/)[0] || name } : null;
}

/** Looks the customer up and names them, if they are still unnamed; the inbox hears of it live. */
export async function nameCustomer(app: FastifyInstance, job: ProfileJob): Promise<void> {
  const [row] = await app.db.select().from(channelAccounts).where(eq(channelAccounts.id, job.account_id));
  // Disconnected since, or not a Meta page account: nothing to ask.
  if (!row || !isProfileProvider(row.provider)) return;
  const account = openAccount(app.config.encryptionKey, row);
  const channel = CHANNEL[row.provider];
  const unnamed = and(
    eq(customers.business_id, row.business_id),
    sql`${customers.external_ids} ->> ${channel} = ${job.external_id}`,
    or(isNull(customers.name), eq(customers.name, '')),
  );
  const [customer] = await app.db.select({ id: customers.id }).from(customers).where(unnamed);
  const graph = graphTargetOf(app.config.providers, account.config as { access_token?: string });
  if (!customer || !graph.token) return;

  let profile: Awaited<ReturnType<typeof fetchMetaProfile>>;
  try {
    profile = await fetchMetaProfile(graph, row.provider, job.external_id);
  } catch (error) {
    // Worth another try later (the queue backs off); anything else is Meta's final word.
    if (!(error instanceof GraphApiError) || error.transient) throw error;
    app.log.info({ err: error, account_id: row.id }, 'Meta would not share a customer profile');
    return;
  }
  if (!profile) return;

  // Only while still unnamed: a name staff typed in the meantime wins.
  const [named] = await app.db
    .update(customers)
    .set({ name: profile.name, first_name: profile.first_name })
    .where(and(eq(customers.id, customer.id), unnamed))
    .returning();
  if (!named) return;
  const open = await app.db.select().from(enquiries).where(eq(enquiries.customer_id, named.id));
  for (const e of open) {
    app.events.emit('enquiry.updated', { business_id: e.business_id, enquiry: toEnquiryRow(e, named) });
  }
}

export const PROFILE_JOB_OPTIONS = { retryLimit: 4, retryDelay: 30, retryBackoff: true } as const;

export async function startProfileJobs(app: FastifyInstance): Promise<void> {
  await app.jobs.work<ProfileJob>(PROFILE_QUEUE, (job) => nameCustomer(app, job.data));
}

/** Queues the lookup once per customer and account (a second message meanwhile adds nothing). */
export async function queueProfileLookup(app: FastifyInstance, job: ProfileJob): Promise<void> {
  await app.jobs.send(PROFILE_QUEUE, job, {
    ...PROFILE_JOB_OPTIONS,
    singletonKey: `${job.account_id}:${job.external_id}`,
  });
}

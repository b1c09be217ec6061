import { channelAccounts, customers, enquiries } from '@switchboard/db';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { GraphApiError, graphTargetOf } from '../../channels/meta/graph.ts';
import { fetchMetaProfile, isProfileProvider, PROFILE_CHANNEL } from '../../channels/meta/profile.ts';
import { customerProfile, type ProfileJob } from '../../jobs/definitions/customer-profile.ts';
import { storableText } from '../../lib/text.ts';
import { openAccount } from '../channels/accounts.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';

/**
 * A customer who wrote on Messenger or Instagram is known only by a page-scoped id. After their first message
 * is stored, a job asks Meta for their name, so the inbox shows a person rather than "Unknown customer". It
 * never holds up the webhook, and a refusal (no consent, a blocked business, missing permissions) leaves the
 * customer unnamed.
 */
/** Looks the customer up and names them, if they are still unnamed; the inbox hears of it live. */
export async function nameCustomer(app: FastifyInstance, job: ProfileJob): Promise<void> {
  const [row] = await app.db.select().from(channelAccounts).where(eq(channelAccounts.id, job.account_id));
  // Disconnected since, or not a Meta page account: nothing to ask.
  if (!row || !isProfileProvider(row.provider)) return;
  const account = openAccount(app.config.encryptionKey, row);
  const channel = PROFILE_CHANNEL[row.provider];
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
    // The name the customer chose on Facebook or Instagram: kept whatever characters it holds.
    profile = storableText(await fetchMetaProfile(graph, row.provider, job.external_id));
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

/** Queues the lookup once per customer and account (a second message meanwhile adds nothing). */
export async function queueProfileLookup(app: FastifyInstance, job: ProfileJob): Promise<void> {
  await app.jobs.send(customerProfile, job, {
    singletonKey: `${job.account_id}:${job.external_id}`,
  });
}

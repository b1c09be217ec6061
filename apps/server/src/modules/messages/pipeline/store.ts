import { customers, type DbOrTx, enquiries, locations, messages, queryRows } from '@switchboard/db';
import type { EnquiryRow, LocationCounts, MessageDto } from '@switchboard/shared';
import { isPhoneNumberChannel, isUuid, threadOf } from '@switchboard/shared';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { InboundMessage } from '../../../channels/types.ts';
import { type OutboxEntry, stageJobs } from '../../../plugins/jobs.ts';
import { externalKey } from '../../customers/service.ts';
import { moveCounters } from '../../enquiries/counters.ts';
import { toEnquiryRow } from '../../enquiries/dto.ts';
import { preview, toMessageDto } from '../dto.ts';
import type { FollowupsOf } from './followups.ts';

type CustomerRow = typeof customers.$inferSelect;
type EnquiryRecord = typeof enquiries.$inferSelect;
type MessageRecord = typeof messages.$inferSelect;

/** A table's columns as `returning` lists them, e.g. for a statement written out by hand. */
const columnsOf = (table: typeof messages | typeof enquiries | typeof customers, alias?: string) =>
  sql.raw(
    Object.values(getTableColumns(table))
      .map((c) => `${alias ? `${alias}.` : ''}"${c.name}"`)
      .join(', '),
  );
const MESSAGE_COLUMNS = columnsOf(messages);
const CUSTOMER_COLUMNS = columnsOf(customers);
const ENQUIRY_COLUMNS = columnsOf(enquiries, 'e');

/** What storing one inbound message gave: the message as stored (or as stored before, for a repeat). */
export type Stored = {
  duplicate: boolean;
  /** A repeat whose first delivery's media was never queued (the server stopped before answering). */
  media_waiting: boolean;
  message: MessageDto;
  enquiry: EnquiryRow;
  /** This message opened its enquiry. */
  created: boolean;
  /** This message reopened its closed enquiry (its assignee is told). */
  reopened: boolean;
  /** The location's counters, when this message moved them. */
  counts: LocationCounts | null;
  business_id: string;
  /** The jobs this message set going, written to the outbox with it: released once the batch has committed. */
  followups: OutboxEntry[];
};

/** Another writer stored one of these provider ids between our check and our insert: store one at a time. */
export class ConcurrentRepeat extends Error {}

/** A message that cannot be stored whatever else is in its batch (its location is gone). */
export class UnstorableMessage extends Error {}

export type StoreOptions = {
  /** Take the advisory locks (PostgreSQL; the embedded database has one connection). */
  locks: boolean;
  /**
   * A customer's closed enquiry whose last message is newer than this is reopened by their next message on
   * that channel and location; an older one leaves room for a new enquiry.
   */
  reopenSince: Date;
  /** The jobs each stored message sets going (media, the assistant), written in the same transaction. */
  followups?: FollowupsOf;
};

const identityOf = (m: InboundMessage) =>
  m.from.external_id
    ? { kind: 'external' as const, value: externalKey(m.channel, m.from.external_id) }
    : m.from.phone
      ? { kind: 'phone' as const, value: m.from.phone }
      : m.from.email
        ? { kind: 'email' as const, value: m.from.email.toLowerCase() }
        : null;

/**
 * One statement that takes a transaction lock per key, in the order `lockKeysOf` sorts them (so two batches
 * never deadlock): the same statement `store_inbound_batch` begins with, so the two ways of storing exclude
 * each other.
 */
async function takeLocks(tx: DbOrTx, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(k, 1)) from unnest(${sql.param(keys)}::text[]) as k order by k`,
  );
}

/** One key per conversation: texts and calls from a number are one thread at a location. */
const threadKey = (location: string, customer: string, channel: string) =>
  `${location}:${customer}:${threadOf(channel)}`;

const key = (m: InboundMessage) => `${m.provider}:${m.provider_message_id}`;

/** The provider-id and thread keys a batch locks, unique and sorted; both ways of storing take the same. */
function lockKeysOf(batch: InboundMessage[]): string[] {
  const keys = new Set<string>();
  for (const m of batch) {
    keys.add(`id:${key(m)}`);
    const identity = identityOf(m);
    if (identity)
      keys.add(`thread:${threadKey(m.location_id, `${identity.kind}:${identity.value}`, m.channel)}`);
  }
  return [...keys].sort();
}

/**
 * Whether a message arriving on `channel` continues enquiry `e`: the same channel, or the phone number's
 * conversation (texts and calls from one number are one conversation), which also takes in a website chat whose
 * reply went by SMS (the visitor had left it).
 */
function continuesThread(channel: string, e: Pick<EnquiryRecord, 'channel' | 'meta'>): boolean {
  if (!isPhoneNumberChannel(channel)) return e.channel === channel;
  return isPhoneNumberChannel(e.channel) || (e.channel === 'widget' && 'sms_fallback_at' in e.meta);
}

/**
 * The channel a message is stored as in its enquiry: the one it came by (a call is a call, a text in a call's
 * or website chat's conversation a text), except that SMS and MMS in a text conversation take its channel.
 */
function storedChannel(arrived: string, enquiryChannel: string): string {
  const text = (c: string) => c === 'sms' || c === 'mms';
  return text(arrived) && text(enquiryChannel) ? enquiryChannel : arrived;
}

/** The earliest and latest moments a provider's own timestamp is believed: past them it is now. */
const EARLIEST = Date.UTC(2000, 0, 1);
const AHEAD_MS = 86_400_000;

/**
 * When the message was sent, as its provider says, unless that is not a moment at all or an absurd one (a
 * missing field parsed to NaN, a year the database cannot hold): such a timestamp would fail the message,
 * and with it the whole batch's statement, so the message is dated when it arrived instead.
 */
function arrivedAt(timestamp: Date | undefined): Date {
  const now = Date.now();
  const t = timestamp?.getTime();
  return t !== undefined && t >= EARLIEST && t <= now + AHEAD_MS ? (timestamp as Date) : new Date(now);
}

/** What an inbound message's row holds besides its enquiry and customer, as the insert takes it. */
function messageFields(m: InboundMessage) {
  const media = m.media ?? [];
  return {
    id: uuidv7(),
    message: m.message,
    meta: {
      ...(m.meta ?? {}),
      ...(m.subject ? { subject: m.subject } : {}),
      ...(media.length ? { media_pending: media.length } : {}),
    },
    attachments: m.attachments ?? [],
    provider: m.provider,
    provider_message_id: m.provider_message_id,
    created_at: arrivedAt(m.timestamp).toISOString(),
    preview: preview(m.message, (m.attachments?.length ?? 0) + media.length),
  };
}

/** One stored message as `store_inbound_batch` answers it (JSON: its timestamps are text, which the DTOs take). */
type StoredRow = {
  ordinal: number;
  message: MessageRecord;
  enquiry: EnquiryRecord;
  customer: Pick<CustomerRow, 'name' | 'phone' | 'email'>;
  created: boolean;
  counts: LocationCounts | null;
};

/**
 * A batch in one call (migration 0012's `store_inbound_batch`), which commits by itself: customers found or
 * created, each message joining its customer's open enquiry or opening one, counters moved for the new ones.
 * The results hold the messages it stored; the rest (undefined: a name or opt-out to record on a known
 * customer, a repeat, a reply to a given enquiry, automatic mail, or the whole batch when something changed
 * meanwhile) are for `storeBatch`. A repeat inside the batch goes with its first.
 */
export async function storeInOneCall(
  db: DbOrTx,
  batch: InboundMessage[],
  businessOf: Map<string, string>,
  options: StoreOptions,
): Promise<(Stored | undefined)[]> {
  const results: (Stored | undefined)[] = batch.map(() => undefined);
  const firstOf = new Map<string, number>();
  const candidates: { i: number; m: InboundMessage; business: string; kind: string; address: string }[] = [];
  batch.forEach((m, i) => {
    if (firstOf.has(key(m))) return;
    firstOf.set(key(m), i);
    const business = businessOf.get(m.location_id);
    const identity = identityOf(m);
    if (business && identity && !m.enquiry_id && !m.automatic)
      candidates.push({ i, m, business, kind: identity.kind, address: identity.value });
  });
  if (!candidates.length) return results;

  const followupsOf = new Map<number, OutboxEntry[]>();
  const incoming = candidates.map(({ i, m, business, kind, address }) => {
    const name = m.from.name || null;
    const fields = messageFields(m);
    const followups = options.followups?.(m, fields.id, business) ?? [];
    followupsOf.set(i, followups);
    return {
      ...fields,
      followups: followups.length ? followups : null,
      ordinal: i,
      new_customer: uuidv7(),
      new_enquiry: uuidv7(),
      business_id: business,
      location_id: m.location_id,
      channel: m.channel,
      kind,
      address,
      name,
      first_name: name?.split(/\s+/)[0] ?? null,
      phone: m.from.phone ?? null,
      email: m.from.email ?? null,
      external_ids: m.from.external_id ? { [m.channel]: m.from.external_id } : {},
      external_key: m.from.external_id ? externalKey(m.channel, m.from.external_id) : null,
      opt: m.sms_opt ?? null,
      title: m.subject ?? null,
      source: m.source ?? null,
      medium: m.medium ?? null,
      campaign: m.campaign ?? null,
      reopen_since: options.reopenSince.toISOString(),
    };
  });
  const locks = options.locks ? sql.param(lockKeysOf(candidates.map((c) => c.m))) : null;
  let stored: StoredRow[];
  try {
    [{ stored = [] } = { stored: [] }] = await queryRows<{ stored: StoredRow[] }>(
      db,
      sql`select store_inbound_batch(${locks}::text[], ${JSON.stringify(incoming)}::json) as stored`,
    );
  } catch (error) {
    if ((error as { code?: string }).code === '40001') return results;
    throw error;
  }
  for (const row of stored) {
    results[row.ordinal] = {
      duplicate: false,
      media_waiting: false,
      message: toMessageDto(row.message, null),
      enquiry: toEnquiryRow(row.enquiry, row.customer),
      created: row.created,
      reopened: false,
      counts: row.counts,
      business_id: row.enquiry.business_id,
      followups: followupsOf.get(row.ordinal) ?? [],
    };
  }
  batch.forEach((m, i) => {
    const first = firstOf.get(key(m))!;
    if (first !== i && results[first]) results[i] = repeatOf(results[first]!);
  });
  return results;
}

/**
 * Stores a batch of inbound messages in the caller's transaction with a handful of multi-row statements,
 * whatever the batch's size: repeats are recognised by provider id, customers found or created by their
 * unique key, each message joins its customer's open enquiry in that thread and location (texts and calls
 * from a number are one thread) or opens one, opt-outs are recorded, and a location's counters move only when an enquiry opens.
 * Messages to existing enquiries take no location-wide lock. Results are in the batch's order. This is the
 * full path: `storeInOneCall` does the common cases in one round trip and leaves the rest to it.
 */
export async function storeBatch(
  tx: DbOrTx,
  batch: InboundMessage[],
  businessOf: Map<string, string>,
  options: StoreOptions,
): Promise<Stored[]> {
  const results: (Stored | undefined)[] = new Array(batch.length);

  // One statement locks the batch's provider ids (another node storing the same id waits for this commit, then
  // sees it) and its threads, by location, channel and the customer's address (a thread's customer may not
  // exist yet): whoever stores a message of the same thread waits, then finds the enquiry this one opened.
  // The embedded database has one connection, so its transactions never overlap: nothing to lock against.
  if (options.locks) await takeLocks(tx, lockKeysOf(batch));
  // The reads are written out (constant text, one array per column) rather than built per batch.
  const repeats = await queryRows<MessageRecord>(
    tx,
    sql`select ${MESSAGE_COLUMNS} from messages
        where (provider, provider_message_id) in (
          select * from unnest(${sql.param(batch.map((m) => m.provider))}::text[],
            ${sql.param(batch.map((m) => m.provider_message_id))}::text[]))`,
  );
  const firstOf = new Map<string, number>();
  const fresh: number[] = [];
  batch.forEach((m, i) => {
    if (repeats.some((r) => r.provider === m.provider && r.provider_message_id === m.provider_message_id))
      return;
    if (firstOf.has(key(m))) return;
    firstOf.set(key(m), i);
    fresh.push(i);
  });
  if (repeats.length) {
    const repeatEnquiries = await tx
      .select()
      .from(enquiries)
      .where(
        inArray(
          enquiries.id,
          repeats.map((r) => r.enquiry_id),
        ),
      );
    batch.forEach((m, i) => {
      const r = repeats.find(
        (x) => x.provider === m.provider && x.provider_message_id === m.provider_message_id,
      );
      if (!r) return;
      const e = repeatEnquiries.find((x) => x.id === r.enquiry_id)!;
      results[i] = {
        duplicate: true,
        media_waiting: 'media_pending' in r.meta,
        message: toMessageDto(r, null),
        enquiry: toEnquiryRow(e, { name: null, phone: null, email: null }),
        created: false,
        reopened: false,
        counts: null,
        business_id: r.business_id,
        followups: [],
      };
    });
  }

  // Customers: found by their unique key, the missing ones created together (a concurrent creator's row is
  // read back instead), then named and opted out or in where the message says so.
  const business = (m: InboundMessage) => {
    const b = businessOf.get(m.location_id);
    if (!b) throw new UnstorableMessage(`unknown location ${m.location_id}`);
    return b;
  };
  const wanted = fresh.map((i) => ({ i, business: business(batch[i]!), identity: identityOf(batch[i]!) }));
  if (wanted.some((w) => !w.identity)) throw new UnstorableMessage('a message without a sender');
  const customerKey = (b: string, id: { kind: string; value: string }) => `${b}|${id.kind}|${id.value}`;
  const found = new Map<string, CustomerRow>();
  const lookUp = async (list: typeof wanted) => {
    for (const kind of ['external', 'phone', 'email'] as const) {
      const of = list.filter((w) => w.identity!.kind === kind);
      if (!of.length) continue;
      const values = [...new Set(of.map((w) => w.identity!.value))];
      const businesses = [...new Set(of.map((w) => w.business))];
      const column =
        kind === 'external' ? sql`external_key` : kind === 'phone' ? sql`phone` : sql`lower(email)`;
      const rows = await queryRows<CustomerRow>(
        tx,
        sql`select ${CUSTOMER_COLUMNS} from customers
            where business_id = any(${sql.param(businesses)}::uuid[]) and ${column} = any(${sql.param(values)}::text[])
            order by created_at`,
      );
      for (const row of rows) {
        const value =
          kind === 'external' ? row.external_key : kind === 'phone' ? row.phone : row.email?.toLowerCase();
        const k = customerKey(row.business_id, { kind, value: value ?? '' });
        if (!found.has(k)) found.set(k, row);
      }
    }
  };
  await lookUp(wanted);
  const missing = wanted.filter((w) => !found.has(customerKey(w.business, w.identity!)));
  if (missing.length) {
    const seen = new Set<string>();
    const rows = missing.flatMap((w) => {
      const k = customerKey(w.business, w.identity!);
      if (seen.has(k)) return [];
      seen.add(k);
      const m = batch[w.i]!;
      const name = m.from.name ?? null;
      const external = m.from.external_id ? { [m.channel]: m.from.external_id } : {};
      return [
        {
          business_id: w.business,
          name,
          first_name: name?.split(/\s+/)[0] ?? null,
          phone: m.from.phone ?? null,
          email: m.from.email ?? null,
          external_ids: external,
          external_key: m.from.external_id ? externalKey(m.channel, m.from.external_id) : null,
        },
      ];
    });
    await tx.insert(customers).values(rows).onConflictDoNothing();
    await lookUp(missing);
  }
  const customerOf = new Map<number, CustomerRow>();
  for (const w of wanted) {
    let c = found.get(customerKey(w.business, w.identity!));
    if (!c) throw new Error('storeBatch: a customer was neither found nor created');
    const m = batch[w.i]!;
    if (m.from.name && !c.name) {
      const [named] = await tx
        .update(customers)
        .set({ name: m.from.name, first_name: m.from.name.split(/\s+/)[0] })
        .where(eq(customers.id, c.id))
        .returning();
      c = named!;
      found.set(customerKey(w.business, w.identity!), c);
    }
    if (m.sms_opt && c.sms_opted_out !== (m.sms_opt === 'out')) {
      const [opted] = await tx
        .update(customers)
        .set({ sms_opted_out: m.sms_opt === 'out' })
        .where(eq(customers.id, c.id))
        .returning();
      c = opted!;
      found.set(customerKey(w.business, w.identity!), c);
    }
    customerOf.set(w.i, c);
  }

  // Enquiries (their threads locked above): each message joins its open enquiry, or reopens the most recent
  // one closed within the window, or opens one.
  const recent = fresh.length
    ? await queryRows<EnquiryRecord>(
        tx,
        sql`select ${columnsOf(enquiries)} from enquiries
            where customer_id = any(${sql.param([...new Set(fresh.map((i) => customerOf.get(i)!.id))])}::uuid[])
              and location_id = any(${sql.param([...new Set(fresh.map((i) => batch[i]!.location_id))])}::uuid[])
              and (status = 'open' or last_message_at >= ${options.reopenSince.toISOString()}::timestamptz)
            order by status = 'open' desc, last_message_at desc`,
      )
    : [];
  const enquiryOf = new Map<number, EnquiryRecord>();
  const createdBy = new Map<string, number>();
  const reopenedBy = new Map<string, number>();
  const countsOf = new Map<number, LocationCounts>();
  const toOpen: { i: number; thread: string; channel: string }[] = [];
  for (const i of fresh) {
    const m = batch[i]!;
    const c = customerOf.get(i)!;
    const match = (e: EnquiryRecord) =>
      e.customer_id === c.id && e.location_id === m.location_id && continuesThread(m.channel, e);
    // The open enquiry first, else the most recent closed one (the list is in that order).
    const existing = recent.find(match);
    const channel = existing?.channel ?? m.channel;
    if (m.enquiry_id) {
      const continued = await continueEnquiry(tx, {
        id: m.enquiry_id,
        business_id: business(m),
        location_id: m.location_id,
        customer_id: c.id,
        channel,
        reopen: !m.automatic,
      });
      if (continued) {
        enquiryOf.set(i, continued.enquiry);
        if (continued.counts) countsOf.set(i, continued.counts);
        if (continued.reopened) reopenedBy.set(continued.enquiry.id, i);
        continue;
      }
    }
    // Automatic mail joins the thread as it is: a closed conversation stays closed.
    if (existing?.status === 'open' || (existing && m.automatic)) {
      enquiryOf.set(i, existing);
      continue;
    }
    if (existing) {
      const { enquiry, counts } = await reopen(tx, existing);
      recent[recent.indexOf(existing)] = enquiry;
      enquiryOf.set(i, enquiry);
      if (counts) countsOf.set(i, counts);
      reopenedBy.set(enquiry.id, i);
      continue;
    }
    toOpen.push({ i, thread: threadKey(m.location_id, c.id, channel), channel });
  }
  const newThreads = new Map<string, { i: number; channel: string }>();
  for (const t of toOpen) if (!newThreads.has(t.thread)) newThreads.set(t.thread, t);
  if (newThreads.size) {
    const opened = await tx
      .insert(enquiries)
      .values(
        [...newThreads.values()].map(({ i, channel }) => {
          const m = batch[i]!;
          return {
            business_id: business(m),
            location_id: m.location_id,
            customer_id: customerOf.get(i)!.id,
            channel,
            title: m.subject ?? null,
            source: m.source ?? null,
            medium: m.medium ?? null,
            campaign: m.campaign ?? null,
            status: 'open' as const,
          };
        }),
      )
      .returning();
    [...newThreads.entries()].forEach(([thread, { i }], n) => {
      createdBy.set(thread, i);
      enquiryOf.set(i, opened[n]!);
    });
    for (const t of toOpen)
      if (!enquiryOf.has(t.i)) enquiryOf.set(t.i, enquiryOf.get(createdBy.get(t.thread)!)!);
    // A new enquiry is open and unassigned: its location counts one more there, and nothing else moves.
    const perLocation = new Map<string, number>();
    for (const { i } of newThreads.values()) {
      const l = batch[i]!.location_id;
      perLocation.set(l, (perLocation.get(l) ?? 0) + 1);
    }
    for (const [locationId, n] of perLocation) {
      const [counts] = await tx
        .update(locations)
        .set({ unassigned_count_open: sql`${locations.unassigned_count_open} + ${n}` })
        .where(eq(locations.id, locationId))
        .returning({
          location_id: locations.id,
          assigned_count_open: locations.assigned_count_open,
          assigned_count_closed: locations.assigned_count_closed,
          unassigned_count_open: locations.unassigned_count_open,
          unassigned_count_closed: locations.unassigned_count_closed,
        });
      for (const { i } of newThreads.values())
        if (batch[i]!.location_id === locationId) countsOf.set(i, counts!);
    }
  }

  // The messages, all in one statement: one array per column (unnest), so the statement and its parameters
  // stay the same size whatever the batch.
  if (fresh.length) {
    const rows = fresh.map((i) => {
      const e = enquiryOf.get(i)!;
      return {
        ...messageFields(batch[i]!),
        business_id: e.business_id,
        enquiry_id: e.id,
        customer_id: customerOf.get(i)!.id,
        channel: storedChannel(batch[i]!.channel, e.channel),
      };
    });
    const column = <K extends keyof (typeof rows)[number]>(k: K) => sql.param(rows.map((r) => r[k]));
    const inserted = await queryRows<MessageRecord>(
      tx,
      sql`insert into messages (id, business_id, enquiry_id, customer_id, channel, direction, message, meta,
            attachments, status, provider, provider_message_id, created_at)
          select id, business_id, enquiry_id, customer_id, channel, 'in', message, meta::jsonb, attachments::jsonb,
            'received', provider, provider_message_id, created_at
          from unnest(${column('id')}::uuid[], ${column('business_id')}::uuid[], ${column('enquiry_id')}::uuid[],
            ${column('customer_id')}::uuid[], ${column('channel')}::text[], ${column('message')}::text[],
            ${sql.param(rows.map((r) => JSON.stringify(r.meta)))}::text[],
            ${sql.param(rows.map((r) => JSON.stringify(r.attachments)))}::text[], ${column('provider')}::text[],
            ${column('provider_message_id')}::text[], ${column('created_at')}::timestamptz[])
            as u(id, business_id, enquiry_id, customer_id, channel, message, meta, attachments, provider,
              provider_message_id, created_at)
          on conflict (provider, provider_message_id) do nothing
          returning ${MESSAGE_COLUMNS}`,
    );
    if (inserted.length !== fresh.length) throw new ConcurrentRepeat('a provider id was stored meanwhile');
    const byId = new Map(inserted.map((m) => [m.id, m]));
    const stored = rows.map((r) => byId.get(r.id)!);
    const followups = fresh.map(
      (i, n) => options.followups?.(batch[i]!, rows[n]!.id, rows[n]!.business_id) ?? [],
    );
    await stageJobs(tx, followups.flat());

    // Each enquiry's newest message, in one statement; then the enquiries as they now are.
    // `first` is the customer's first message of the batch (null when all were automatic).
    const latest = new Map<string, { at: Date; first: Date | null; preview: string }>();
    rows.forEach((r, n) => {
      const at = new Date(stored[n]!.created_at);
      const before = latest.get(stored[n]!.enquiry_id);
      const customer = batch[fresh[n]!]!.automatic ? null : at;
      latest.set(stored[n]!.enquiry_id, { at, first: before?.first ?? customer, preview: r.preview });
    });
    const changes = [...latest.entries()];
    const updated = await queryRows<EnquiryRecord>(
      tx,
      // A customer writing wakes a snoozed enquiry, and waits for an answer from their first unanswered message;
      // automatic mail does neither.
      sql`update enquiries e set last_message_at = v.at, last_message_preview = v.preview, seen = false,
            snoozed_until = case when v.first_at is null then e.snoozed_until end,
            awaiting_since = coalesce(e.awaiting_since, v.first_at), updated_at = now()
          from unnest(${sql.param(changes.map(([id]) => id))}::uuid[],
            ${sql.param(changes.map(([, v]) => v.at.toISOString()))}::timestamptz[],
            ${sql.param(changes.map(([, v]) => v.first?.toISOString() ?? null))}::timestamptz[],
            ${sql.param(changes.map(([, v]) => v.preview))}::text[]) as v(id, at, first_at, preview)
          where e.id = v.id
          returning ${ENQUIRY_COLUMNS}`,
    );

    fresh.forEach((i, n) => {
      const e = updated.find((x) => x.id === stored[n]!.enquiry_id)!;
      const thread = threadKey(e.location_id, e.customer_id, e.channel);
      const created = createdBy.get(thread) === i;
      results[i] = {
        duplicate: false,
        media_waiting: false,
        message: toMessageDto(stored[n]!, null),
        enquiry: toEnquiryRow(e, customerOf.get(i)!),
        created,
        reopened: reopenedBy.get(e.id) === i,
        counts: created || countsOf.has(i) ? (countsOf.get(i) ?? null) : null,
        business_id: e.business_id,
        followups: followups[n]!,
      };
    });
  }

  // A repeat inside the batch answers like a provider's later repeat: the first's message, stored once.
  batch.forEach((m, i) => {
    if (results[i]) return;
    results[i] = repeatOf(results[firstOf.get(key(m))!]!);
  });
  return results as Stored[];
}

/** A repeat inside a batch answers as its first did, having changed and set going nothing of its own. */
const repeatOf = (first: Stored): Stored => ({
  ...first,
  duplicate: true,
  created: false,
  reopened: false,
  counts: null,
  followups: [],
});

/**
 * The enquiry a provider says a message continues (an email reply), when it is the same business, location,
 * customer and channel; a closed one is reopened and counted as open again (unless the message is automatic). Null otherwise, so the message
 * goes where any other would.
 */
async function continueEnquiry(
  tx: DbOrTx,
  hint: {
    id: string;
    business_id: string;
    location_id: string;
    customer_id: string;
    channel: string;
    /** False for automatic mail: a closed enquiry takes it as it is. */
    reopen: boolean;
  },
) {
  if (!isUuid(hint.id)) return null;
  const [e] = await tx
    .select()
    .from(enquiries)
    .where(
      and(
        eq(enquiries.id, hint.id),
        eq(enquiries.business_id, hint.business_id),
        eq(enquiries.location_id, hint.location_id),
        eq(enquiries.customer_id, hint.customer_id),
        eq(enquiries.channel, hint.channel),
      ),
    )
    .for('update');
  if (!e) return null;
  if (e.status === 'open' || !hint.reopen) return { enquiry: e, reopened: false, counts: null };
  return { ...(await reopen(tx, e)), reopened: true };
}

/** A closed enquiry open again, with the same assignee; its location counts it as open again. */
async function reopen(tx: DbOrTx, e: EnquiryRecord) {
  const [reopened] = await tx
    .update(enquiries)
    .set({ status: 'open', cycle_started_at: new Date() })
    .where(eq(enquiries.id, e.id))
    .returning();
  const counts = await moveCounters(tx, e.location_id, e, { assigned_to: e.assigned_to, status: 'open' });
  return { enquiry: reopened!, counts };
}

import { type Database, locations } from '@switchboard/db';
import { inArray } from 'drizzle-orm';
import type { InboundMessage } from '../../../channels/types.ts';
import type { Jobs } from '../../../plugins/jobs.ts';
import { type AutoReplyDelay, followupsFor } from './followups.ts';
import { type Stored, storeBatch, storeInOneCall, UnstorableMessage } from './store.ts';

/** The most messages one transaction stores: past this, a burst is split into several commits. */
export const MAX_BATCH = 200;

type Waiting = {
  message: InboundMessage;
  resolve: (stored: Stored) => void;
  reject: (error: unknown) => void;
};

export type InboundWriter = {
  /** Resolves once the message is committed (never before): the caller may then acknowledge the provider. */
  store(message: InboundMessage): Promise<Stored>;
  /** Waits for what was handed in to be committed, and its follow-ups queued. */
  drain(): Promise<void>;
};

/** What the writer needs besides the database: the job queue, and where the assistant answers and when. */
export type WriterDeps = {
  jobs: Pick<Jobs, 'entry' | 'release'>;
  autoReplyDelay: AutoReplyDelay;
  log: { warn(detail: object, message: string): void };
};

/**
 * One writer per process stores every inbound message (group commit): a message handed in while no batch is
 * being written starts one at once; messages arriving while a batch commits wait and go together in the
 * next. So one webhook alone costs one transaction, and a burst costs one transaction per batch rather than
 * one per message, which is what lets ingest keep up with the database's commit rate. Most batches are one
 * database call (`storeInOneCall`); what it leaves is stored in one transaction. A batch that fails is
 * retried one message at a time, so one bad message fails only its own webhook. Each message's follow-up jobs
 * are written to the outbox in the same statement as the message and released to the queue after the commit,
 * without holding up the next batch (a server that stops before releasing them leaves them to the sweep).
 */
export function createInboundWriter(
  database: Pick<Database, 'db' | 'engine'>,
  { reopenWindowDays }: { reopenWindowDays: number },
  deps: WriterDeps,
): InboundWriter {
  const { db } = database;
  const locks = database.engine === 'postgres';
  const waiting: Waiting[] = [];
  // Which business a location belongs to never changes: looked up once per location.
  const businessOf = new Map<string, string>();

  async function resolveBusinesses(batch: InboundMessage[]) {
    const unknown = [...new Set(batch.map((m) => m.location_id))].filter((id) => !businessOf.has(id));
    if (!unknown.length) return;
    const rows = await db
      .select({ id: locations.id, business_id: locations.business_id })
      .from(locations)
      .where(inArray(locations.id, unknown));
    for (const r of rows) businessOf.set(r.id, r.business_id);
  }

  let releasing: Promise<void> = Promise.resolve();
  /** After a commit: the stored messages' follow-ups to the queue, one after another, off the writer's path. */
  function release(stored: Stored[]) {
    const entries = stored.flatMap((s) => s.followups);
    if (!entries.length) return;
    releasing = releasing
      .then(() => deps.jobs.release(entries))
      .catch((error: unknown) =>
        deps.log.warn({ err: error }, 'queuing follow-ups failed; the outbox sweep queues them'),
      );
  }

  async function write(all: Waiting[]): Promise<void> {
    let batch = all;
    const done: Stored[] = [];
    const resolve = (w: Waiting, stored: Stored) => {
      w.resolve(stored);
      done.push(stored);
    };
    try {
      await resolveBusinesses(batch.map((w) => w.message));
      const options = {
        locks,
        reopenSince: new Date(Date.now() - reopenWindowDays * 86_400_000),
        followups: await followupsFor(
          deps.jobs,
          batch.map((w) => w.message),
          deps.autoReplyDelay,
        ),
      };
      // Most batches are stored whole in one call; what it leaves goes through the full path's transaction.
      const inOneCall = await storeInOneCall(
        db,
        batch.map((w) => w.message),
        businessOf,
        options,
      );
      batch = batch.filter((w, i) => {
        const stored = inOneCall[i];
        if (stored) resolve(w, stored);
        return !stored;
      });
      if (!batch.length) return;
      const messages = batch.map((w) => w.message);
      const stored = await db.transaction((tx) => storeBatch(tx, messages, businessOf, options));
      for (const [i, w] of batch.entries()) resolve(w, stored[i] as Stored);
      return;
    } catch (error) {
      if (batch.length === 1) {
        const e = error instanceof UnstorableMessage ? new Error(`ingestInbound: ${error.message}`) : error;
        batch[0]!.reject(e);
        return;
      }
    } finally {
      release(done);
    }
    for (const w of batch) await write([w]);
  }

  let writing: Promise<void> | null = null;
  let scheduled = false;
  function pump(): void {
    if (writing || scheduled || !waiting.length) return;
    // Started after the requests the event loop is reading now have handed their messages in: an embedded
    // database answers without real I/O, so a batch begun at once would run before any other could join.
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = waiting.splice(0, MAX_BATCH);
      writing = write(batch).finally(() => {
        writing = null;
        pump();
      });
    });
  }

  return {
    store(message) {
      return new Promise<Stored>((resolve, reject) => {
        waiting.push({ message, resolve, reject });
        pump();
      });
    },
    async drain() {
      while (writing || scheduled) await (writing ?? new Promise((r) => setImmediate(r)));
      await releasing;
    },
  };
}

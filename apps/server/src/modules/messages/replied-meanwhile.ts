import { type DbOrTx, queryRows } from '@switchboard/db';
import type { SendCollision } from '@switchboard/shared';
import { sql } from 'drizzle-orm';
import { AppError } from '../../errors.ts';

type Row = {
  seen_known: boolean;
  id: string | null;
  message: string | null;
  attachments: number | null;
  created_at: Date | string | null;
  team_user_id: string | null;
  full_name: string | null;
};

/**
 * Refuses a reply when someone else answered the customer after the message its sender last saw: a teammate
 * (not the sender, whatever tab or device they used) or the assistant. The business's automatic messages (a
 * missed call's text, invoice and review reminders) answer nobody's question, and a reply that failed never
 * reached the customer, so neither counts. Runs with the enquiry's row locked, so of two replies sent at once
 * the second sees the first. One query: the seen message by its key, then the thread's index from there on.
 */
export async function refuseIfRepliedMeanwhile(
  tx: DbOrTx,
  input: { enquiry_id: string; user_id: string; seen_message_id: string | null },
): Promise<void> {
  const seen = input.seen_message_id;
  const [row] = await queryRows<Row>(
    tx,
    sql`with seen as (
          select created_at from messages where id = ${seen}::uuid and enquiry_id = ${input.enquiry_id}::uuid
        )
        select exists (select 1 from seen) as seen_known, m.id, m.message,
               jsonb_array_length(m.attachments) as attachments, m.created_at, m.team_user_id, u.full_name
        from (select 1) one
        left join lateral (
          select * from messages m
          where m.enquiry_id = ${input.enquiry_id}::uuid
            and (${seen}::uuid is null or m.created_at > (select created_at from seen))
            and m.direction = 'out'
            and m.status <> 'failed'
            and m.team_user_id is distinct from ${input.user_id}::uuid
            and (m.team_user_id is not null or m.ai_interaction = 'ai_generated')
          order by m.created_at desc, m.id desc
          limit 1
        ) m on true
        left join users u on u.id = m.team_user_id`,
  );
  if (seen !== null && !row?.seen_known) {
    throw new AppError(
      'unprocessable',
      'seen_message_id is not a message of this conversation. Send the id of the newest message you saw in it.',
    );
  }
  if (!row?.id) return;
  const reply: SendCollision['reply'] = {
    id: row.id,
    message: row.message ?? '',
    attachments: Number(row.attachments ?? 0),
    created_at: new Date(row.created_at!).toISOString(),
    by: row.team_user_id
      ? { kind: 'teammate', full_name: row.full_name }
      : { kind: 'assistant', full_name: null },
  };
  const who = reply.by.kind === 'assistant' ? 'The assistant' : (reply.by.full_name ?? 'A teammate');
  throw new AppError(
    'replied_meanwhile',
    `${who} replied to this customer at ${reply.created_at} while you were writing. Read their reply, then send yours anyway or change it.`,
    { details: { reply } },
  );
}

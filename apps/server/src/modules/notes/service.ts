import { businessMembers, enquiryNotes, users } from '@switchboard/db';
import type { Note, NoteRequest } from '@switchboard/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { loadEnquiry } from '../enquiries/service.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'events'>;
type NoteRow = typeof enquiryNotes.$inferSelect;

export function toNote(row: NoteRow, author: { full_name: string; avatar: string | null } | null): Note {
  return {
    id: row.id,
    enquiry_id: row.enquiry_id,
    kind: row.kind,
    user_id: row.user_id,
    author,
    body: row.body,
    mentions: row.mentions,
    created_at: row.created_at.toISOString(),
  };
}

/** `GET /enquiries/{id}/notes`: the enquiry's private notes, oldest first. */
export async function listNotes({ db, actor }: Ctx, enquiryId: string): Promise<Note[]> {
  const a = requireBusiness(actor);
  const { e } = await loadEnquiry(db, a, enquiryId);
  const rows = await db
    .select({ n: enquiryNotes, u: { full_name: users.full_name, avatar: users.avatar } })
    .from(enquiryNotes)
    .leftJoin(users, eq(users.id, enquiryNotes.user_id))
    .where(eq(enquiryNotes.enquiry_id, e.id))
    .orderBy(asc(enquiryNotes.created_at), asc(enquiryNotes.id));
  return rows.map((r) => toNote(r.n, r.u?.full_name === undefined || r.u === null ? null : r.u));
}

/**
 * Writes what happened in a conversation into its thread as an event (`kind: 'event'`, no author), seen live by
 * the team like a note.
 */
export async function addEventNote(
  { db, events }: Pick<Context, 'db' | 'events'>,
  input: { business_id: string; enquiry_id: string; body: string },
): Promise<void> {
  const { e, c } = await loadEnquiry(db, input.business_id, input.enquiry_id);
  const [row] = await db
    .insert(enquiryNotes)
    .values({ business_id: input.business_id, enquiry_id: e.id, kind: 'event', body: input.body })
    .returning();
  events.emit('note.created', {
    business_id: input.business_id,
    location_id: e.location_id,
    enquiry: toEnquiryRow(e, c),
    note: toNote(row!, null),
    mentioned: [],
  });
}

/**
 * `POST /enquiries/{id}/notes`: a note only the team sees. Mentions must be members of the business; each
 * mentioned teammate (not the author) is told live, wherever they are in the app.
 */
export async function addNote(ctx: Ctx, enquiryId: string, input: NoteRequest): Promise<Note> {
  const a = requireBusiness(ctx.actor);
  const { e, c } = await loadEnquiry(ctx.db, a, enquiryId);
  const mentions = [...new Set(input.mentions)];
  if (mentions.length) {
    const members = await ctx.db
      .select({ user_id: businessMembers.user_id })
      .from(businessMembers)
      .where(and(eq(businessMembers.business_id, a.business_id), inArray(businessMembers.user_id, mentions)));
    if (members.length !== mentions.length)
      throw new AppError('unprocessable', 'A mentioned person is not a member of this business.');
  }
  const [row] = await ctx.db
    .insert(enquiryNotes)
    .values({ business_id: a.business_id, enquiry_id: e.id, user_id: a.user_id, body: input.body, mentions })
    .returning();
  const [author] = await ctx.db
    .select({ full_name: users.full_name, avatar: users.avatar })
    .from(users)
    .where(eq(users.id, a.user_id));
  const note = toNote(row!, author ?? null);
  ctx.events.emit('note.created', {
    business_id: a.business_id,
    location_id: e.location_id,
    enquiry: toEnquiryRow(e, c),
    note,
    mentioned: mentions.filter((id) => id !== a.user_id),
  });
  return note;
}

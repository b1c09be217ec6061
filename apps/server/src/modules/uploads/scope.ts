import { calls, type DbOrTx, enquiries, messages, uploads } from '@switchboard/db';
import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import { atTheirLocations, type BusinessActor } from '../../plugins/auth.ts';

/**
 * How long before a message an upload it carries may have been stored: a customer's media is downloaded by a job
 * after their message is written (retries included), and a person's attachment is uploaded before they send it.
 */
const MEDIA_LAG = sql`interval '7 days'`;

/**
 * The one condition every query of uploads for a person goes through: the business's files, and for a staff
 * member limited to some locations only those they uploaded themselves, or that a message in an enquiry or a
 * call at one of their locations carries. Images shown publicly (the business's, avatars) are served elsewhere.
 */
export function uploadsTheySee(a: BusinessActor): SQL {
  const business = eq(uploads.business_id, a.business_id);
  const atTheirEnquiries = atTheirLocations(a, enquiries.location_id);
  const atTheirCalls = atTheirLocations(a, calls.location_id);
  if (!atTheirEnquiries || !atTheirCalls) return business;
  return and(
    business,
    or(
      eq(uploads.user_id, a.user_id),
      sql`exists (select 1 from ${calls} where ${calls.recording_upload_id} = ${uploads.id}
                    and ${calls.business_id} = ${a.business_id} and ${atTheirCalls})`,
      // The business's messages from the upload's time on (an index range), those at the person's locations.
      sql`exists (select 1 from ${messages} join ${enquiries} on ${enquiries.id} = ${messages.enquiry_id}
                    where ${messages.business_id} = ${a.business_id}
                      and ${messages.created_at} >= ${uploads.created_at} - ${MEDIA_LAG}
                      and ${messages.attachments} @> jsonb_build_array(jsonb_build_object('id', ${uploads.id}::text))
                      and ${atTheirEnquiries})`,
    ),
  )!;
}

/** One upload the person may read, or none (another business's, or another location's). */
export async function findUploadFor(db: DbOrTx, a: BusinessActor, id: string) {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), uploadsTheySee(a)));
  return row;
}

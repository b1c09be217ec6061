import { customers, type DbOrTx, enquiries, enquirySearch, queryRows } from '@switchboard/db';
import { and, type SQL, sql } from 'drizzle-orm';

/**
 * The inbox text search (`q` on GET /enquiries). An enquiry matches when
 * - every word of q starts a word of one of its messages (so "satur" finds "Saturday"; case-insensitive), or
 * - q appears anywhere in its title, or in its customer's name, email or phone (a phone number may be typed
 *   with spaces, dashes or a leading 0: "0491 570 006" finds +61491570006).
 *
 * How many enquiries match decides the cheapest way to find the newest ones, so the search goes in steps, each
 * bounded, and stops at the first that settles it:
 * 1. Collect the business's matches from the indexes, giving up past `setLimit`: a rare word, a name.
 * 2. Too many to collect, so the words are common: read the list's newest `window` enquiries in order and test
 *    each; the page fills long before the window ends.
 * 3. Only if neither settles it (a word common elsewhere in the business but rare in this list): collect all.
 */
export type SearchOptions = {
  businessId: string;
  /** The list's other conditions on `enquiries` (business, location, status, filters). */
  where: SQL[];
  q: string;
  /** How many of the newest matches are wanted (offset + page size + 1). */
  needed: number;
  setLimit?: number;
  window?: number;
};

export const SEARCH_SET_LIMIT = 200;
export const SEARCH_WINDOW = 2000;

/** The ids of the newest `needed` enquiries that match q and the list's conditions (fewer if fewer match). */
export async function searchEnquiryIds(db: DbOrTx, options: SearchOptions): Promise<string[]> {
  const collected = await collectMatches(db, options, options.setLimit ?? SEARCH_SET_LIMIT);
  if (collected.complete) return collected.ids;

  const scanned = await scanNewest(db, options, Math.max(options.window ?? SEARCH_WINDOW, options.needed));
  if (scanned.settled) return scanned.ids;

  return (await collectMatches(db, options, null)).ids;
}

/** q as the search's conditions: word prefixes for message text, a LIKE pattern for the rest. */
function terms(q: string) {
  const pattern = `%${escapeLike(q)}%`;
  // A phone number as people type it: its digits, without the trunk 0, match the stored E.164 number.
  const digits = q.replace(/\D/g, '').replace(/^0+/, '');
  const phonePattern = /^[\d\s()+\-.]+$/.test(q) && digits.length >= 3 ? `%${digits}%` : pattern;
  // Each word of q (as the 'simple' parser splits and lower-cases it) as a prefix, all required:
  // 'are' 'hi' → 'are':* & 'hi':*. Built from the tsvector's own quoting, so no input can break the syntax;
  // no words at all (only punctuation) makes it null, which matches nothing. Only immutable functions, so the
  // planner sees the resulting query and estimates from the index statistics.
  const words = sql`(nullif(replace(strip(to_tsvector('simple'::regconfig, ${q}))::text, ''' ''', ''':* & '''), '') || ':*')::tsquery`;
  return { pattern, phonePattern, words };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

function customerMatches(businessId: string, t: ReturnType<typeof terms>) {
  return sql`select ${customers.id} from ${customers}
    where ${customers.business_id} = ${businessId}
      and (${customers.name} ilike ${t.pattern} or ${customers.email} ilike ${t.pattern}
           or ${customers.phone} ilike ${t.phonePattern})`;
}

/**
 * Step 1 (and 3): every matching enquiry of the business, from the indexes, then the newest `needed` of those in
 * the list. With a limit, stops collecting past it and reports the result incomplete.
 */
async function collectMatches(
  db: DbOrTx,
  { businessId, where, q, needed }: SearchOptions,
  limit: number | null,
): Promise<{ ids: string[]; complete: boolean }> {
  const t = terms(q);
  // UNION ALL streams (a duplicate only counts twice towards the limit); the join below removes duplicates.
  const [row] = await queryRows<{ found: number; ids: string[] | null }>(
    db,
    sql`with matched as materialized (
      select ${enquirySearch.enquiry_id} as id from ${enquirySearch}
        where ${enquirySearch.business_id} = ${businessId} and ${enquirySearch.document} @@ ${t.words}
      union all
      select ${enquiries.id} from ${enquiries}
        where ${enquiries.business_id} = ${businessId} and ${enquiries.title} ilike ${t.pattern}
      union all
      select e.id from (${customerMatches(businessId, t)}) c
        cross join lateral (
          select ${enquiries.id} as id from ${enquiries} where ${enquiries.customer_id} = c.id offset 0
        ) e
      ${limit === null ? sql`` : sql`limit ${limit + 1}`}
    )
    select (select count(*)::int from matched) as found,
      -- The page only when the matches are complete (a sub-select under CASE runs only if reached).
      case when ${limit === null ? sql`true` : sql`(select count(*) from matched) <= ${limit}`} then
      (select json_agg(page.id) from (
        -- One lookup per match (a lateral join cannot become a scan of the whole list).
        select e.id from (select distinct id from matched) m
        cross join lateral (
          select ${enquiries.id} as id, ${enquiries.last_message_at} as last_message_at from ${enquiries}
          where ${enquiries.id} = m.id and ${and(...where)}
          offset 0
        ) e
        order by e.last_message_at desc, e.id desc
        limit ${needed}
      ) page) end as ids`,
  );
  return { ids: row?.ids ?? [], complete: limit === null || (row?.found ?? 0) <= limit };
}

/**
 * Steps 1 and 3: the list's newest `window` enquiries in order, each tested, until `needed` match. Settled when
 * they did, or when the window held the whole list.
 */
async function scanNewest(
  db: DbOrTx,
  { where, q, needed }: SearchOptions,
  window: number,
): Promise<{ ids: string[]; settled: boolean }> {
  const t = terms(q);
  const [row] = await queryRows<{ ids: string[] | null }>(
    db,
    sql`select json_agg(hit.id) as ids from (
      select w.id from (
        select ${enquiries.id} as id, ${enquiries.customer_id} as customer_id, ${enquiries.title} as title,
               ${enquiries.last_message_at} as last_message_at
        from ${enquiries}
        where ${and(...where)}
        order by ${enquiries.last_message_at} desc, ${enquiries.id} desc
        limit ${window}
      ) w
      -- Lateral joins test each enquiry as it is read, so reading stops when the page is full (an EXISTS here
      -- could be planned as a hash of every match in the business, built before the first row).
      left join lateral (
        select true as hit from ${enquirySearch}
        where ${enquirySearch.enquiry_id} = w.id and ${enquirySearch.document} @@ ${t.words}
        offset 0
      ) words on true
      left join lateral (
        select true as hit from ${customers}
        where ${customers.id} = w.customer_id
          and (${customers.name} ilike ${t.pattern} or ${customers.email} ilike ${t.pattern}
               or ${customers.phone} ilike ${t.phonePattern})
        offset 0
      ) customer on true
      where w.title ilike ${t.pattern} or words.hit or customer.hit
      order by w.last_message_at desc, w.id desc
      limit ${needed}
    ) hit`,
  );
  const ids = row?.ids ?? [];
  if (ids.length >= needed) return { ids, settled: true };
  const [count] = await queryRows<{ read: number }>(
    db,
    sql`select count(*)::int as read from (select 1 from ${enquiries} where ${and(...where)} limit ${window}) n`,
  );
  return { ids, settled: (count?.read ?? 0) < window };
}

import { queryRows } from '@switchboard/db';
import {
  type AnalyticsQuery,
  type BreakdownRow,
  bucketDays,
  type CallReportDto,
  CHANNELS,
  calendarDayIn,
  channelDisplayName,
  type EnquiryReportDto,
  type ResponseReportDto,
  type TimesDto,
} from '@switchboard/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbActor } from '../../context.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { type ReportScope, rangeOf, reportScope } from './range.ts';

type Query = z.output<typeof AnalyticsQuery>;

/**
 * The scope's locations as a condition on a location id column (`column` is trusted SQL); with `orNone`, rows
 * without a location too when the scope is every location.
 */
export function atLocations(scope: ReportScope, column: SQL, orNone = false): SQL {
  const none = orNone && scope.everywhere ? sql`${column} is null or ` : sql``;
  if (scope.locations.length === 0) return orNone && scope.everywhere ? sql`${column} is null` : sql`false`;
  return sql`(${none}${column} in (${sql.join(
    scope.locations.map((l) => sql`${l.id}::uuid`),
    sql`, `,
  )}))`;
}

export const iso = (d: Date) => d.toISOString();

/** The series bucket an instant column falls in, in the scope's zone, as 'YYYY-MM-DD' (`column` is trusted SQL). */
export const bucketOf = (scope: ReportScope, column: SQL): SQL =>
  sql`to_char(date_trunc(${scope.bucket}, ${column} at time zone ${scope.timezone}), 'YYYY-MM-DD')`;

/** Rows counted in this period and the one before, folded into a breakdown, largest first. */
export function breakdown(
  rows: { key: string | null; current: boolean; n: number }[],
  label: (key: string | null) => string,
): BreakdownRow[] {
  const byKey = new Map<string | null, BreakdownRow>();
  for (const r of rows) {
    const row = byKey.get(r.key) ?? { key: r.key, label: label(r.key), count: 0, previous: 0 };
    if (r.current) row.count += Number(r.n);
    else row.previous += Number(r.n);
    byKey.set(r.key, row);
  }
  return [...byKey.values()].sort(
    (a, b) => b.count - a.count || b.previous - a.previous || a.label.localeCompare(b.label),
  );
}

/** Counts per bucket of the period (rows of one bucket added up), every bucket listed (empty ones as 0). */
export function series(scope: ReportScope, rows: { bucket: string | Date; n: number }[]) {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const bucket = typeof r.bucket === 'string' ? r.bucket.slice(0, 10) : calendarDayIn(r.bucket, 'UTC');
    counts.set(bucket, (counts.get(bucket) ?? 0) + Number(r.n));
  }
  const first = calendarDayIn(scope.from, scope.timezone);
  const last = calendarDayIn(new Date(scope.to.getTime() - 1), scope.timezone);
  return bucketDays(first, last, scope.bucket).map((bucket) => ({ bucket, count: counts.get(bucket) ?? 0 }));
}

/** A channel as reports name it: the website chat by its own name (the inbox shows it as SMS, spec §9). */
function channelLabel(key: string | null): string {
  if (key === 'widget') return 'Website chat';
  const known = CHANNELS.find((c) => c === key);
  return known ? channelDisplayName(known) : (key ?? 'Unknown');
}

const unknown = (what: string) => (key: string | null) => key ?? `No ${what}`;

/** `GET /analytics/enquiries`. */
export async function enquiryReport({ db, actor }: DbActor, query: Query): Promise<EnquiryReportDto> {
  const scope = await reportScope(db, requireBusiness(actor), query);
  const where = sql`e.business_id = ${scope.business_id}::uuid and ${atLocations(scope, sql`e.location_id`)}`;
  const local = sql`(e.created_at at time zone ${scope.timezone})`;
  const [groups, cells] = await Promise.all([
    queryRows<{
      channel: string;
      source: string | null;
      medium: string | null;
      campaign: string | null;
      location_id: string;
      current: boolean;
      n: number;
    }>(
      db,
      sql`select e.channel, e.source, e.medium, e.campaign, e.location_id,
                 e.created_at >= ${iso(scope.from)}::timestamptz as current, count(*)::int as n
          from enquiries e
          where ${where} and e.created_at >= ${iso(scope.previousFrom)}::timestamptz
            and e.created_at < ${iso(scope.to)}::timestamptz
          group by 1, 2, 3, 4, 5, 6`,
    ),
    // The series and the heatmap from one pass: this period by bucket, weekday and hour.
    queryRows<{ bucket: string; weekday: number; hour: number; n: number }>(
      db,
      sql`select ${bucketOf(scope, sql`e.created_at`)} as bucket, extract(dow from ${local})::int as weekday,
                 extract(hour from ${local})::int as hour, count(*)::int as n
          from enquiries e
          where ${where} and e.created_at >= ${iso(scope.from)}::timestamptz and e.created_at < ${iso(scope.to)}::timestamptz
          group by 1, 2, 3`,
    ),
  ]);
  const heat = new Map<string, { weekday: number; hour: number; count: number }>();
  for (const c of cells) {
    const key = `${c.weekday}:${c.hour}`;
    const cell = heat.get(key) ?? { weekday: c.weekday, hour: c.hour, count: 0 };
    cell.count += Number(c.n);
    heat.set(key, cell);
  }
  const by = (pick: (g: (typeof groups)[number]) => string | null) =>
    groups.map((g) => ({ key: pick(g), current: g.current, n: g.n }));
  const names = new Map(scope.locations.map((l) => [l.id, l.name ?? 'Unknown Location']));
  const total = groups.filter((g) => g.current).reduce((s, g) => s + Number(g.n), 0);
  const previous_total = groups.filter((g) => !g.current).reduce((s, g) => s + Number(g.n), 0);
  return {
    range: rangeOf(scope),
    total,
    previous_total,
    by_channel: breakdown(
      by((g) => g.channel),
      channelLabel,
    ),
    by_source: breakdown(
      by((g) => g.source),
      unknown('source'),
    ),
    by_medium: breakdown(
      by((g) => g.medium),
      unknown('medium'),
    ),
    by_campaign: breakdown(
      by((g) => g.campaign),
      unknown('campaign'),
    ),
    by_location: breakdown(
      by((g) => g.location_id),
      (k) => names.get(k ?? '') ?? 'Unknown Location',
    ),
    series: series(scope, cells),
    heatmap: [...heat.values()],
  };
}

const STATUS_LABELS: Record<string, string> = {
  completed: 'Completed',
  'no-answer': 'No answer',
  busy: 'Busy',
  failed: 'Failed',
  canceled: 'Cancelled',
  ringing: 'Ringing',
  'in-progress': 'In progress',
  queued: 'Queued',
  initiated: 'Started',
};

/** `GET /analytics/calls`. */
export async function callReport({ db, actor }: DbActor, query: Query): Promise<CallReportDto> {
  const scope = await reportScope(db, requireBusiness(actor), query);
  const where = sql`c.business_id = ${scope.business_id}::uuid and ${atLocations(scope, sql`c.location_id`)}`;
  // Answered: an incoming call someone took, or an outgoing one that connected. Missed: incoming, taken by
  // nobody, over (or a voicemail left) — as the calls list counts them.
  const answered = sql`(case when c.direction = 'out' then c.status = 'completed' else c.user_id is not null end)`;
  const missed = sql`(c.direction = 'in' and c.user_id is null
    and (c.voicemail or c.status in ('completed', 'busy', 'no-answer', 'failed', 'canceled')))`;
  const [groups, buckets] = await Promise.all([
    queryRows<{
      status: string;
      direction: string;
      answered: boolean;
      missed: boolean;
      current: boolean;
      n: number;
    }>(
      db,
      sql`select c.status, c.direction, ${answered} as answered, ${missed} as missed,
                 c.created_at >= ${iso(scope.from)}::timestamptz as current, count(*)::int as n
          from calls c
          where ${where} and c.created_at >= ${iso(scope.previousFrom)}::timestamptz
            and c.created_at < ${iso(scope.to)}::timestamptz
          group by 1, 2, 3, 4, 5`,
    ),
    queryRows<{ bucket: string; n: number }>(
      db,
      sql`select ${bucketOf(scope, sql`c.created_at`)} as bucket, count(*)::int as n
          from calls c
          where ${where} and c.created_at >= ${iso(scope.from)}::timestamptz and c.created_at < ${iso(scope.to)}::timestamptz
          group by 1`,
    ),
  ]);
  const sum = (pick: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(pick).reduce((s, g) => s + Number(g.n), 0);
  return {
    range: rangeOf(scope),
    total: sum((g) => g.current),
    previous_total: sum((g) => !g.current),
    answered: sum((g) => g.current && g.answered),
    missed: sum((g) => g.current && g.missed),
    previous_answered: sum((g) => !g.current && g.answered),
    previous_missed: sum((g) => !g.current && g.missed),
    by_status: breakdown(
      groups.map((g) => ({ key: g.status, current: g.current, n: g.n })),
      (k) => STATUS_LABELS[k ?? ''] ?? k ?? 'Unknown',
    ),
    by_direction: breakdown(
      groups.map((g) => ({ key: g.direction, current: g.current, n: g.n })),
      (k) => (k === 'in' ? 'Incoming' : 'Outgoing'),
    ),
    series: series(scope, buckets),
  };
}

/** Each kind of fact, in this period and the one before: the four figures a report compares. */
const TIMES = [
  { kind: 'response', current: true },
  { kind: 'response', current: false },
  { kind: 'resolution', current: true },
  { kind: 'resolution', current: false },
] as const;
const timesKey = (t: (typeof TIMES)[number]) => `${t.kind}_${t.current ? 'now' : 'before'}`;

type TimesRow = Record<string, number | string | (number | string)[] | null>;

const whole = (v: number | string | null | undefined) =>
  v === null || v === undefined ? null : Math.round(Number(v));

function times(row: TimesRow | undefined, t: (typeof TIMES)[number]): TimesDto {
  const key = timesKey(t);
  const plain = (row?.[`plain_${key}`] ?? null) as (number | string)[] | null;
  const open = (row?.[`open_${key}`] ?? null) as (number | string)[] | null;
  return {
    count: Number(row?.[`n_${key}`] ?? 0),
    median_seconds: whole(plain?.[0]),
    p90_seconds: whole(plain?.[1]),
    median_business_seconds: whole(open?.[0]),
    p90_business_seconds: whole(open?.[1]),
  };
}

/** `GET /analytics/response-times`: read from the facts recorded as replies and closes happened. */
export async function responseReport({ db, actor }: DbActor, query: Query): Promise<ResponseReportDto> {
  const scope = await reportScope(db, requireBusiness(actor), query);
  const facts = sql`f.business_id = ${scope.business_id}::uuid and ${atLocations(scope, sql`f.location_id`)}
    and f.ended_at >= ${iso(scope.previousFrom)}::timestamptz and f.ended_at < ${iso(scope.to)}::timestamptz`;
  const current = sql`f.ended_at >= ${iso(scope.from)}::timestamptz`;
  // One row, each figure an aggregate over its own rows: no sorting by group first, only each percentile's sort
  // (one per column gives both percentiles).
  const figures = sql.join(
    TIMES.map((t) => {
      const only = sql`f.kind = ${t.kind} and (${current}) = ${t.current}`;
      const key = sql.raw(timesKey(t));
      return sql`count(*) filter (where ${only}) as n_${key},
        count(*) filter (where ${only} and f.by_assistant) as assistant_${key},
        percentile_cont(array[0.5, 0.9]) within group (order by f.seconds) filter (where ${only}) as plain_${key},
        percentile_cont(array[0.5, 0.9]) within group (order by f.business_seconds) filter (where ${only}) as open_${key}`;
    }),
    sql`, `,
  );
  const [[row], staff, handoffs] = await Promise.all([
    queryRows<TimesRow>(db, sql`select ${figures} from enquiry_facts f where ${facts}`),
    queryRows<{
      user_id: string;
      full_name: string;
      n: number;
      median: number | null;
      business_median: number | null;
    }>(
      db,
      // Grouped before the names are joined, so the join is of a few rows whatever the plan.
      sql`select s.user_id, u.full_name, s.n, s.median, s.business_median
          from (select f.user_id, count(*)::int as n,
                       percentile_cont(0.5) within group (order by f.seconds) as median,
                       percentile_cont(0.5) within group (order by f.business_seconds) as business_median
                from enquiry_facts f
                where ${facts} and ${current} and f.kind = 'response' and f.user_id is not null
                group by 1) s
          join users u on u.id = s.user_id
          order by s.n desc, u.full_name`,
    ),
    queryRows<{ current: boolean; n: number }>(
      db,
      sql`select e.ai_handoff_at >= ${iso(scope.from)}::timestamptz as current, count(*)::int as n
          from enquiries e
          where e.business_id = ${scope.business_id}::uuid and ${atLocations(scope, sql`e.location_id`)}
            and e.ai_handoff_at >= ${iso(scope.previousFrom)}::timestamptz and e.ai_handoff_at < ${iso(scope.to)}::timestamptz
          group by 1`,
    ),
  ]);
  const handedOff = (now: boolean) => Number(handoffs.find((x) => x.current === now)?.n ?? 0);
  const [responseNow, responseBefore, resolutionNow, resolutionBefore] = TIMES;
  return {
    range: rangeOf(scope),
    first_response: { ...times(row, responseNow), previous: times(row, responseBefore) },
    resolution: { ...times(row, resolutionNow), previous: times(row, resolutionBefore) },
    by_staff: staff.map((s) => ({
      user_id: s.user_id,
      full_name: s.full_name,
      replies: Number(s.n),
      median_seconds: whole(s.median),
      median_business_seconds: whole(s.business_median),
    })),
    assistant: {
      answered: Number(row?.[`assistant_${timesKey(responseNow)}`] ?? 0),
      handed_off: handedOff(true),
      previous_answered: Number(row?.[`assistant_${timesKey(responseBefore)}`] ?? 0),
      previous_handed_off: handedOff(false),
    },
  };
}

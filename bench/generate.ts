/**
 * Bulk inbox data for the benchmarks: one business ("Harbourside Dental" from the demo seed) with 100,000
 * enquiries and 1,000,000 messages over its two locations, written set-based in SQL so it takes seconds to
 * minutes. The same statements run on PostgreSQL and on PGlite (core functions only: gen_random_uuid, md5,
 * random). The embedded copy is cached as a PGlite data dir under `.tmp/bench-pglite-<hash>`, rebuilt when
 * the migrations, the seed, this file or the scale change.
 *
 * Standalone: `node --import tsx bench/generate.ts` builds (or reuses) the PGlite cache; BENCH_SCALE applies.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type Database,
  DEMO_LOGINS,
  migrateDatabase,
  migrationsFolder,
  openDatabase,
  seedDemo,
} from '@switchboard/db';
import pg from 'pg';

export const FULL_SCALE = { enquiries: 100_000, customers: 20_000, messagesPerEnquiry: 10 } as const;
export const BENCH_BUSINESS = 'Harbourside Dental';
export const PG_BENCH_DB = 'switchboard_bench';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TMP_DIR = join(REPO_ROOT, '.tmp');

/** Plain SQL on one session: the generator's statements depend on temp tables and on setseed. */
export type SqlRunner = {
  exec(text: string): Promise<void>;
  rows<T>(text: string): Promise<T[]>;
};

export type GenerateStats = {
  customers: number;
  enquiries: number;
  messages: number;
  seconds: number;
  steps: { step: string; seconds: number }[];
};

export type Log = (line: string) => void;

export function sizesFor(scale: number) {
  // An even number of enquiries: message counts come in pairs that sum to exactly 2 × the mean.
  const enquiries = Math.max(2, 2 * Math.round((FULL_SCALE.enquiries * scale) / 2));
  const customers = Math.max(10, Math.round(FULL_SCALE.customers * scale));
  return { enquiries, customers, messages: enquiries * FULL_SCALE.messagesPerEnquiry };
}

// ---------------------------------------------------------------------------------------------------------
// Realistic text: a dental practice's customers and front desk. Lengths run from a few words to a paragraph.

const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Charlotte',
  'Noah',
  'Amelia',
  'Oliver',
  'Isla',
  'Jack',
  'Mia',
  'William',
  'Ava',
  'Henry',
  'Grace',
  'Leo',
  'Chloe',
  'Thomas',
  'Zoe',
  'Lucas',
  'Ruby',
  'James',
  'Sophie',
  'Ethan',
  'Harper',
  'Mason',
  'Ella',
  'Lachlan',
  'Matilda',
  'Cooper',
  'Ivy',
  'Hudson',
  'Aisha',
  'Wei',
  'Priya',
  'Mohammed',
  'Hana',
  'Luca',
  'Sienna',
  'Arjun',
  'Mei',
  'Tom',
];

const LAST_NAMES = [
  'Smith',
  'Nguyen',
  'Williams',
  'Brown',
  'Jones',
  'Wilson',
  'Taylor',
  'Johnson',
  'White',
  'Martin',
  'Anderson',
  'Thompson',
  'Tran',
  'Walker',
  'Harris',
  'Lee',
  'Ryan',
  'Robinson',
  'Kelly',
  'King',
  'Davis',
  'Wright',
  'Evans',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Chen',
  'Kaur',
  'Singh',
  'Murphy',
  'Mitchell',
  'Campbell',
  'Young',
  'Papadopoulos',
  'Rossi',
  'Okafor',
];

const CUSTOMER_TEXT = [
  'Hi, do you have anything available this week?',
  'Can I book a check-up and clean for my daughter? She is 7.',
  'Thanks!',
  'Yes that works for me.',
  'I have a chipped front tooth after biting into something hard last night. It is not painful but it looks bad. Could someone see me today or tomorrow?',
  'How much is a standard check-up and clean without insurance?',
  'Do you accept Bupa? I have extras cover.',
  'Running about 10 minutes late, sorry!',
  'Can I move my appointment on Thursday to next week? Something came up at work.',
  'My gum has been bleeding when I brush for the last few days, is that something I should get looked at?',
  'Ok great, see you then.',
  'Is there parking near the Docklands clinic?',
  'I had a filling done on Monday and the tooth is still really sensitive to cold. Is that normal or should I come back in?',
  'What are your opening hours on Saturday?',
  'Do you do teeth whitening? If so how long does it take and roughly what does it cost?',
  'Perfect, thank you so much for your help.',
  'I received a reminder for my appointment but I do not think I booked one. Can you check?',
  'My son knocked his tooth playing football and it is a bit wobbly. Should we come in straight away?',
  'Could you please send me an invoice for my last visit? I need it for my health fund claim.',
  'Is Dr Patel available for a consultation about Invisalign?',
  'no worries',
  'Hi there, I am new to the area and looking for a dentist for the whole family (two adults and three kids). Are you taking new patients, and do you bulk bill under the Child Dental Benefits Schedule?',
  'Can I pay by card on the day?',
  'I need to cancel tomorrow, sorry. Will call to rebook.',
];

/** A sentence about one customer message in 4,000: the benchmark's rare word ("anxiety"). */
const RARE_TEXT = 'My partner has dental anxiety, can you help?';

const STAFF_TEXT = [
  'Hi, thanks for reaching out to Harbourside Dental!',
  'We have a 9:30am or a 2:15pm on Thursday, which suits you better?',
  'You are booked in. We will send a reminder the day before.',
  'No problem at all, see you soon.',
  'A standard check-up and clean is $210 without insurance. We offer on-the-spot claiming for all major health funds.',
  'Yes, we accept Bupa, Medibank, HCF, nib and most other funds.',
  'Thanks for letting us know, we will see you shortly.',
  'I have moved your appointment to Tuesday 10:45am. Let us know if that does not work.',
  'Some bleeding can be a sign of gum inflammation. We recommend booking a check-up so the dentist can take a look; in the meantime keep brushing gently twice a day and floss daily.',
  'Sensitivity for a week or two after a filling can be normal, but if it is getting worse or you have pain when biting, please call us on (03) 9000 1234 and we will fit you in.',
  'We are open 8am to 1pm on Saturdays.',
  'There is a Wilson car park under the building, and we validate parking for two hours.',
  'Teeth whitening takes about an hour in the chair, or we can make take-home trays. In-chair whitening starts at $650.',
  'For a knocked or wobbly tooth please come in as soon as you can. We keep emergency slots free every morning.',
  'I have emailed the invoice to the address we have on file.',
  'Dr Patel has Invisalign consultations on Wednesday afternoons. Would you like me to book one?',
  'Of course, happy to help.',
  'We are taking new patients, and yes, we bulk bill eligible children under the CDBS. I can book the whole family in back to back if that is easier.',
  'Yes, we take all major cards and Apple Pay.',
  'Thanks for letting us know. Reply here or call us whenever you are ready to rebook.',
];

const EMAIL_SUBJECTS = [
  'Appointment request',
  'Question about my bill',
  'Health fund invoice',
  'New patient enquiry',
  'Rescheduling my appointment',
  'Whitening enquiry',
  'Invisalign consultation',
  'Follow-up after my filling',
];

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
const textArray = (items: readonly string[]) => `(array[${items.map(quote).join(',')}]::text[])`;
const pick = (items: readonly string[], indexExpr: string) =>
  `${textArray(items)}[1 + ((${indexExpr}) % ${items.length})]`;

/**
 * A uuid v7 (time-ordered, like the app's ids) for the timestamp expression `ts`: 48 bits of milliseconds,
 * version 7, variant 8 and random bits from random() (gen_random_uuid() is several times slower on PGlite).
 */
const uuid7 = (ts: string) =>
  `(lpad(to_hex(floor(extract(epoch from ${ts}) * 1000)::bigint), 12, '0') || '7' ||
    lpad(to_hex(floor(random() * 4096)::int), 3, '0') || '8' || lpad(to_hex(floor(random() * 2 ^ 60)::bigint), 15, '0'))::uuid`;

/**
 * The text of message `j` of an enquiry, as SQL: deterministic in (channel, seed, j) so the enquiry's
 * preview can be computed from the same expression as its last message.
 */
function bodySql(e: string, j: string): string {
  const a = `${e}.seed + ${j} * 7`;
  const b = `${e}.seed + ${j} * 13 + 5`;
  const c = `${e}.seed * 3 + ${j} * 17 + 11`;
  const first = `coalesce(${e}.first_name, 'there')`;
  return `case
    when ${j} % 2 = 0 and ${e}.channel = 'email' then
      'Hi Harbourside team,' || chr(10) || chr(10) || ${pick(CUSTOMER_TEXT, a)} || ' ' || ${pick(CUSTOMER_TEXT, b)}
      || ' ' || ${pick(CUSTOMER_TEXT, c)} || chr(10) || chr(10) || 'Thanks,' || chr(10) || coalesce(${e}.customer_name, '')
    when ${j} % 2 = 0 then
      ${pick(CUSTOMER_TEXT, a)} || case when (${e}.seed + ${j}) % 3 = 0 then ' ' || ${pick(CUSTOMER_TEXT, b)} else '' end
      || case when (${e}.seed * 31 + ${j}) % 4000 = 0 then ' ' || ${quote(RARE_TEXT)} else '' end
    when ${e}.channel = 'email' then
      'Hi ' || ${first} || ',' || chr(10) || chr(10) || ${pick(STAFF_TEXT, a)} || ' ' || ${pick(STAFF_TEXT, b)} || ' '
      || ${pick(STAFF_TEXT, c)} || chr(10) || chr(10) || 'Kind regards,' || chr(10) || 'Harbourside Dental' || chr(10)
      || '12 Harbour Esplanade, Docklands VIC 3008 · (03) 9000 1234'
    else
      ${pick(STAFF_TEXT, a)} || case when (${e}.seed + ${j}) % 4 = 0 then ' ' || ${pick(STAFF_TEXT, b)} else '' end
  end`;
}

/** The app's preview(): whitespace collapsed, at most 140 characters. */
const previewSql = (body: string) => `(select case when length(t) > 140 then left(t, 139) || '…' else t end
    from (select regexp_replace(btrim(${body}), '\\s+', ' ', 'g') as t) p)`;

/** Channel mix of a dental practice's inbox; `r` is uniform in [0, 1). */
const channelSql = (r: string) => `case
    when ${r} < 0.32 then 'sms' when ${r} < 0.50 then 'email' when ${r} < 0.63 then 'whatsapp'
    when ${r} < 0.73 then 'widget' when ${r} < 0.80 then 'facebook' when ${r} < 0.85 then 'instagram'
    when ${r} < 0.90 then 'web_form' when ${r} < 0.93 then 'contact_form' when ${r} < 0.96 then 'phone_call'
    when ${r} < 0.98 then 'mms' else 'google_rcs' end`;

const providerSql = (channel: string) => `case
    when ${channel} in ('sms', 'mms', 'phone_call') then 'twilio'
    when ${channel} in ('whatsapp', 'facebook', 'instagram') then 'meta'
    when ${channel} = 'google_rcs' then 'google-rcs'
    when ${channel} in ('web_form', 'contact_form') then 'forms'
    else ${channel} end`;

// ---------------------------------------------------------------------------------------------------------

type Ids = { business: string; locations: string[]; owner: string; staff1: string; staff2: string };

async function lookupIds(run: SqlRunner): Promise<Ids> {
  const [biz] = await run.rows<{ id: string }>(
    `select id from businesses where name = ${quote(BENCH_BUSINESS)}`,
  );
  if (!biz) throw new Error(`generate: the seed has no business named ${BENCH_BUSINESS}`);
  const locs = await run.rows<{ id: string }>(
    `select id from locations where business_id = '${biz.id}' order by precedence, created_at`,
  );
  const users = await run.rows<{ id: string; email: string }>(
    `select id, email from users where email in (${[DEMO_LOGINS.owner, DEMO_LOGINS.staff1, DEMO_LOGINS.staff2].map(quote).join(',')})`,
  );
  const byEmail = (email: string) => {
    const u = users.find((x) => x.email === email);
    if (!u) throw new Error(`generate: the seed has no user ${email}`);
    return u.id;
  };
  if (locs.length < 2)
    throw new Error(`generate: ${BENCH_BUSINESS} needs two locations, the seed made ${locs.length}`);
  return {
    business: biz.id,
    locations: locs.map((l) => l.id),
    owner: byEmail(DEMO_LOGINS.owner),
    staff1: byEmail(DEMO_LOGINS.staff1),
    staff2: byEmail(DEMO_LOGINS.staff2),
  };
}

/** Adds the bulk inbox to the seeded demo business. Runs on one session (temp tables, setseed). */
export async function generateInbox(run: SqlRunner, scale: number, log: Log): Promise<GenerateStats> {
  const n = sizesFor(scale);
  const ids = await lookupIds(run);
  const [loc1, loc2] = ids.locations as [string, string];
  const steps: GenerateStats['steps'] = [];
  const started = performance.now();
  const step = async (name: string, fn: () => Promise<void>) => {
    const t0 = performance.now();
    await fn();
    const seconds = (performance.now() - t0) / 1000;
    steps.push({ step: name, seconds });
    log(`  ${name.padEnd(34)} ${seconds.toFixed(1).padStart(6)} s`);
  };

  await run.exec('select setseed(0.2024)');

  // Bulk-load practice: no per-row foreign-key triggers (the rows are consistent by construction) and the
  // secondary indexes built once at the end instead of row by row. Primary keys stay.
  const secondary = await run.rows<{ indexname: string; indexdef: string }>(`
    select indexname, indexdef from pg_indexes
     where schemaname = 'public' and tablename in ('customers', 'enquiries', 'messages', 'enquiry_search')
       and indexname not in (select conname from pg_constraint)
     order by tablename, indexname`);
  await step('drop secondary indexes', async () => {
    await run.exec("set session_replication_role = 'replica'");
    for (const ix of secondary) await run.exec(`drop index "${ix.indexname}"`);
  });

  await step(`customers (${n.customers.toLocaleString('en')})`, async () => {
    await run.exec(`
      create temp table bench_cust as
      select i, ${uuid7('created_at')} as id, created_at, r_name, r_phone, r_email, r_ext,
             case when r_name < 0.08 then null else first_name end as first_name,
             case when r_name < 0.08 then null else first_name || ' ' || last_name end as name,
             first_name as fn, last_name as ln
      from (
        select i, random() as r_name, random() as r_phone, random() as r_email, random() as r_ext,
               ${textArray(FIRST_NAMES)}[1 + floor(random() * ${FIRST_NAMES.length})::int] as first_name,
               ${textArray(LAST_NAMES)}[1 + floor(random() * ${LAST_NAMES.length})::int] as last_name,
               now() - random() * interval '730 days' as created_at
        from generate_series(1, ${n.customers}) i
      ) s`);
    await run.exec(`
      insert into customers (id, business_id, name, first_name, phone, email, external_ids, created_at, updated_at)
      select id, '${ids.business}', name, first_name,
             case when r_phone < 0.85 then '+614' || lpad(((i::bigint * 7919) % 100000000)::text, 8, '0') end,
             case when r_email < 0.6 or r_phone >= 0.85 then lower(fn || '.' || ln || i || '@example.com') end,
             case when r_ext < 0.10 then jsonb_build_object('facebook', (1000000000000 + i)::text)
                  when r_ext < 0.18 then jsonb_build_object('widget', md5(i::text))
                  else '{}'::jsonb end,
             created_at, created_at
      from bench_cust order by created_at`);
  });

  await step(`enquiry plan (${n.enquiries.toLocaleString('en')})`, async () => {
    // Message counts run 1..19 with mean exactly 10: the two enquiries of a pair get 10 + d and 10 - d.
    await run.exec(`
      create temp table bench_plan as
      select k, random() as r_loc, random() as r_chan, random() as r_status, random() as r_assign,
             random() as r_seen, random() as r_src, random() as r_camp, random() as r_dur, random() as r_upd,
             random() as r_cap,
             floor(random() * 1000000)::int as seed,
             1 + floor(power(random(), 1.4) * ${n.customers})::int as cust_i,
             now() - interval '365 days' + (k - 1) * (interval '364 days' / ${n.enquiries})
               + random() * interval '50 minutes' as created_at,
             ${FULL_SCALE.messagesPerEnquiry} + case when k % 2 = 1 then d else -d end as n_msgs
      from (
        select k, ((((k + 1) / 2)::bigint * 2654435761) % 4294967296 % 19)::int - 9 as d
        from generate_series(1, ${n.enquiries}) k
      ) s`);
    await run.exec(`
      create temp table bench_enq as
      select p.k, p.seed, p.n_msgs, p.created_at, c.id as customer_id, c.name as customer_name,
             c.first_name,
             case when p.r_loc < 0.6 then '${loc1}'::uuid else '${loc2}'::uuid end as location_id,
             ${channelSql('p.r_chan')} as channel,
             case when p.r_status < 0.3 then 'open' else 'closed' end as status,
             case when p.r_assign < 0.4 then null when p.r_assign < 0.6 then '${ids.owner}'::uuid
                  when p.r_assign < 0.8 then '${ids.staff1}'::uuid else '${ids.staff2}'::uuid end as assigned_to,
             p.r_seen, p.r_upd, p.r_cap,
             case when p.r_src < 0.18 then 'google' when p.r_src < 0.30 then 'google'
                  when p.r_src < 0.38 then 'facebook' when p.r_src < 0.43 then 'instagram'
                  when p.r_src < 0.46 then 'bing' when p.r_src < 0.52 then 'healthengine.com.au'
                  when p.r_src < 0.57 then 'newsletter' when p.r_src < 0.75 then 'direct' end as source,
             case when p.r_src < 0.18 then 'cpc' when p.r_src < 0.30 then 'organic'
                  when p.r_src < 0.38 then 'paid_social' when p.r_src < 0.43 then 'social'
                  when p.r_src < 0.46 then 'cpc' when p.r_src < 0.52 then 'referral'
                  when p.r_src < 0.57 then 'email' end as medium,
             case when p.r_src < 0.18 then (array['brand', 'spring-checkup', 'implants-2025', 'invisalign'])[1 + floor(p.r_camp * 4)::int]
                  when p.r_src < 0.38 and p.r_src >= 0.30 then (array['new-patients', 'whitening-offer'])[1 + floor(p.r_camp * 2)::int]
                  when p.r_src >= 0.52 and p.r_src < 0.57 then 'monthly-news' end as campaign,
             -- A conversation lasts minutes to two weeks; one still going spreads its last message up to now.
             case when p.n_msgs = 1 then p.created_at
                  when p.created_at + power(p.r_dur, 3) * interval '14 days' > now() - interval '1 minute'
                    then p.created_at + (now() - interval '1 minute' - p.created_at) * p.r_cap
                  else p.created_at + power(p.r_dur, 3) * interval '14 days' end as last_at
      from bench_plan p join bench_cust c on c.i = p.cust_i`);
    await run.exec(`
      alter table bench_enq add column id uuid, add column title text;
      update bench_enq set id = ${uuid7('created_at')},
        title = case when channel = 'email' then ${pick(EMAIL_SUBJECTS, 'seed')}
                     when channel in ('web_form', 'contact_form') then 'Website enquiry' end`);
  });

  await step('enquiries', async () => {
    await run.exec(`
      insert into enquiries (id, business_id, location_id, customer_id, channel, title, status, assigned_to, seen,
                             source, medium, campaign, last_message_preview, last_message_at, meta, created_at, updated_at)
      select e.id, '${ids.business}', e.location_id, e.customer_id, e.channel, e.title, e.status, e.assigned_to,
             e.status = 'closed' or e.r_seen < 0.4, e.source, e.medium, e.campaign,
             ${previewSql(bodySql('e', '(e.n_msgs - 1)'))}, e.last_at, '{}'::jsonb, e.created_at,
             least(now(), e.last_at + case when e.status = 'closed' then e.r_upd * interval '3 hours'
                                           else e.r_upd * interval '10 minutes' end)
      from bench_enq e order by e.k`);
  });

  const chunk = Math.max(1000, Math.ceil(n.enquiries / 10));
  const messageSteps: number[] = [];
  const t0 = performance.now();
  for (let from = 1; from <= n.enquiries; from += chunk) {
    const to = Math.min(n.enquiries, from + chunk - 1);
    const c0 = performance.now();
    // Inserted in time order chunk by chunk, as they would have arrived: one thread's messages are spread
    // over the heap, so a page of them reads several pages, as in production.
    await run.exec(`
      insert into messages (id, business_id, enquiry_id, customer_id, channel, direction, team_user_id, message, meta,
                            attachments, status, provider, provider_message_id, created_at, updated_at)
      select m.id, '${ids.business}', m.enquiry_id, m.customer_id, m.channel, m.direction,
             case when m.direction = 'out' then coalesce(m.assigned_to, '${ids.owner}'::uuid) end,
             m.body,
             case when m.channel = 'email' then jsonb_build_object('subject', coalesce(m.title, 'Your enquiry'),
                    'from', case when m.direction = 'in' then 'customer@example.com' else 'hello@harbourside.test' end)
                  else '{}'::jsonb end,
             case when random() < 0.03 then jsonb_build_array(jsonb_build_object('id', gen_random_uuid(),
                    'name', 'photo.jpg', 'content_type', 'image/jpeg', 'size', 180000 + floor(random() * 900000)::int,
                    'url', '/api/v1/uploads/' || gen_random_uuid() || '/photo.jpg'))
                  else '[]'::jsonb end,
             case when m.direction = 'in' then 'received'
                  when m.last and m.seed % 23 = 0 then 'failed'
                  when m.last and m.seed % 7 = 0 then 'sent'
                  when m.channel in ('whatsapp', 'facebook', 'instagram') then 'read'
                  else 'delivered' end,
             m.provider,
             case m.provider when 'twilio' then 'SM' || m.h when 'meta' then 'wamid.' || m.h
                             when 'email' then '<' || m.h || '@mail.example.com>' else m.h end,
             m.at, m.at
      from (
        select *, replace(id::text, '-', '') as h from (
        select ${uuid7('at')} as id, * from (
        select e.id as enquiry_id, e.customer_id, e.channel, e.assigned_to, e.title, e.seed,
               case when j % 2 = 0 then 'in' else 'out' end as direction,
               j = e.n_msgs - 1 as last,
               ${bodySql('e', 'j')} as body,
               ${providerSql('e.channel')} as provider,
               e.created_at + (e.last_at - e.created_at) * (j::float8 / greatest(e.n_msgs - 1, 1)) as at
        from bench_enq e cross join lateral generate_series(0, e.n_msgs - 1) j
        where e.k between ${from} and ${to}
        ) m0 offset 0
        ) m1 offset 0
      ) m
      order by m.at`);
    messageSteps.push((performance.now() - c0) / 1000);
    log(`    messages of enquiries ${from}..${to}: ${((performance.now() - c0) / 1000).toFixed(1)} s`);
  }
  const msgSeconds = (performance.now() - t0) / 1000;
  steps.push({ step: `messages (${n.messages.toLocaleString('en')})`, seconds: msgSeconds });
  log(
    `  ${`messages (${n.messages.toLocaleString('en')})`.padEnd(34)} ${msgSeconds.toFixed(1).padStart(6)} s`,
  );

  await step('search documents', async () => {
    // What the messages trigger does row by row (triggers are off for the bulk load): each enquiry's words.
    // The demo seed's enquiries already have theirs.
    await run.exec(`
      insert into enquiry_search (enquiry_id, business_id, document)
      select m.enquiry_id, '${ids.business}',
             strip(to_tsvector('simple'::regconfig, left(string_agg(m.message, ' ' order by m.created_at, m.id), 100000)))
      from messages m where m.business_id = '${ids.business}'
      group by m.enquiry_id
      on conflict (enquiry_id) do nothing`);
  });

  await step(`rebuild ${secondary.length} indexes`, async () => {
    await run.exec("set session_replication_role = 'origin'");
    await run.exec("set maintenance_work_mem = '128MB'");
    for (const ix of secondary) await run.exec(ix.indexdef);
    await run.exec('reset maintenance_work_mem');
  });

  await step('location counters (exact)', async () => {
    const count = (status: string, assigned: boolean) =>
      `(select count(*)::int from enquiries e where e.location_id = l.id and e.status = '${status}'
          and e.assigned_to is ${assigned ? 'not ' : ''}null)`;
    await run.exec(`
      update locations l set
        assigned_count_open = ${count('open', true)}, assigned_count_closed = ${count('closed', true)},
        unassigned_count_open = ${count('open', false)}, unassigned_count_closed = ${count('closed', false)}
      where l.business_id = '${ids.business}'`);
    await run.exec('drop table bench_enq; drop table bench_plan; drop table bench_cust');
  });

  await step('vacuum analyze', async () => {
    // VACUUM may not share a statement batch (an implicit transaction) with anything else.
    for (const table of ['customers', 'enquiries', 'messages', 'enquiry_search'])
      await run.exec(`vacuum analyze ${table}`);
    await run.exec('analyze');
  });

  const [check] = await run.rows<{
    customers: number;
    enquiries: number;
    messages: number;
    counters: number;
  }>(`
    select (select count(*)::int from customers where business_id = '${ids.business}') as customers,
           (select count(*)::int from enquiries where business_id = '${ids.business}') as enquiries,
           (select count(*)::int from messages where business_id = '${ids.business}') as messages,
           (select sum(assigned_count_open + assigned_count_closed + unassigned_count_open + unassigned_count_closed)::int
              from locations where business_id = '${ids.business}') as counters`);
  if (
    !check ||
    check.enquiries !== n.enquiries ||
    check.messages !== n.messages ||
    check.counters !== n.enquiries
  ) {
    throw new Error(`generate: counts do not add up: ${JSON.stringify(check)}`);
  }
  return {
    customers: check.customers,
    enquiries: check.enquiries,
    messages: check.messages,
    seconds: (performance.now() - started) / 1000,
    steps,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Engines

export type BenchDatabase = {
  database: Database;
  /** What generating took, or null when a cached copy was opened. */
  generated: GenerateStats | null;
  /** Where the data lives, for the report. */
  where: string;
  /** The cached PGlite data dir (kept between runs), if that is the engine. */
  cacheDir?: string;
  /** When a cached copy was opened: when it was generated and how long that took. */
  cached?: { created_at: string; seconds: number };
};

function pgliteRunner(database: Database): SqlRunner {
  const pglite = database.pglite;
  if (!pglite) throw new Error('generate: the embedded database has no PGlite handle');
  return {
    exec: async (text) => {
      await pglite.exec(text);
    },
    rows: async <T>(text: string) => (await pglite.query<T>(text)).rows,
  };
}

function pgRunner(client: pg.PoolClient): SqlRunner {
  return {
    exec: async (text) => {
      await client.query(text);
    },
    rows: async <T>(text: string) => (await client.query(text)).rows as T[],
  };
}

/** Hash of everything the generated data depends on except the scale. */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith('.sql')) hash.update(readFileSync(join(migrationsFolder, file)));
  }
  hash.update(readFileSync(resolve(migrationsFolder, '../src/seed.ts')));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

type CacheMeta = { inputs: string; scale: number; created_at: string; generated: GenerateStats };
const META_FILE = 'bench-meta.json';

export function pgliteCacheDir(scale: number): string {
  const inputs = inputsHash();
  const key = createHash('sha256').update(`${inputs}:${scale}`).digest('hex').slice(0, 16);
  return join(TMP_DIR, `bench-pglite-${key}`);
}

/** Removes cached data dirs built from other migrations/seed/generator, and half-built ones. */
function pruneStaleCaches(keep: string, log: Log): void {
  if (!existsSync(TMP_DIR)) return;
  const inputs = inputsHash();
  for (const name of readdirSync(TMP_DIR)) {
    if (!name.startsWith('bench-pglite-')) continue;
    const dir = join(TMP_DIR, name);
    if (dir === keep) continue;
    let stale = name.endsWith('.partial');
    if (!stale) {
      try {
        stale = (JSON.parse(readFileSync(join(dir, META_FILE), 'utf8')) as CacheMeta).inputs !== inputs;
      } catch {
        stale = true;
      }
    }
    if (stale) {
      log(`  removing stale cache ${name}`);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * The PGlite copy, opened as the app opens its data dir (`openDatabase({ dataDir })`, files on disk).
 * Generated on first use into `<dir>.partial` and renamed when complete, so an interrupted run never
 * leaves a half-filled cache behind.
 */
export async function openPgliteBench(scale: number, log: Log): Promise<BenchDatabase> {
  const dir = pgliteCacheDir(scale);
  pruneStaleCaches(dir, log);
  if (existsSync(join(dir, META_FILE))) {
    const meta = JSON.parse(readFileSync(join(dir, META_FILE), 'utf8')) as CacheMeta;
    log(`  PGlite: using cached data dir ${relative(dir)}`);
    const database = await openDatabase({ dataDir: dir });
    const cached = { created_at: meta.created_at, seconds: meta.generated.seconds };
    return { database, generated: null, where: relative(dir), cacheDir: dir, cached };
  }
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  log(`  PGlite: generating into ${relative(partial)} (first run for these migrations and scale)`);
  const t0 = performance.now();
  let database = await openDatabase({ dataDir: partial });
  let generated: GenerateStats;
  try {
    await migrateDatabase(database);
    await seedDemo(database.db);
    const setup = (performance.now() - t0) / 1000;
    log(`  ${'migrate + seed'.padEnd(34)} ${setup.toFixed(1).padStart(6)} s`);
    generated = await generateInbox(pgliteRunner(database), scale, log);
    generated.steps.unshift({ step: 'migrate + seed', seconds: setup });
    generated.seconds += setup;
  } finally {
    await database.close();
  }
  const meta: CacheMeta = { inputs: inputsHash(), scale, created_at: new Date().toISOString(), generated };
  writeFileSync(join(partial, META_FILE), JSON.stringify(meta, null, 2));
  renameSync(partial, dir);
  database = await openDatabase({ dataDir: dir });
  return { database, generated, where: relative(dir), cacheDir: dir };
}

/** A fresh database on the benchmark's own PostgreSQL server, generated every run (the server is temporary). */
export async function openPostgresBench(adminUrl: string, scale: number, log: Log): Promise<BenchDatabase> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${PG_BENCH_DB} with (force)`);
    await admin.query(`create database ${PG_BENCH_DB}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${PG_BENCH_DB}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 });
  try {
    const t0 = performance.now();
    await migrateDatabase(database);
    await seedDemo(database.db);
    const setup = (performance.now() - t0) / 1000;
    log(`  ${'migrate + seed'.padEnd(34)} ${setup.toFixed(1).padStart(6)} s`);
    if (!database.pool) throw new Error('generate: the PostgreSQL database has no pool');
    const client = await database.pool.connect();
    let generated: GenerateStats;
    try {
      generated = await generateInbox(pgRunner(client), scale, log);
    } finally {
      client.release();
    }
    generated.steps.unshift({ step: 'migrate + seed', seconds: setup });
    generated.seconds += setup;
    return { database, generated, where: `${url.host}/${PG_BENCH_DB}` };
  } catch (error) {
    await database.close();
    throw error;
  }
}

const relative = (path: string) => path.replace(`${REPO_ROOT}/`, '');

export function scaleFromEnv(): number {
  const raw = process.env.BENCH_SCALE ?? '1';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 10) {
    throw new Error(`BENCH_SCALE must be a number in (0, 10], got ${JSON.stringify(raw)}`);
  }
  return scale;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const scale = scaleFromEnv();
  const bench = await openPgliteBench(scale, (line) => console.log(line));
  console.log(
    bench.generated
      ? `generated in ${bench.generated.seconds.toFixed(1)} s: ${bench.where}`
      : `already cached: ${bench.where}`,
  );
  await bench.database.close();
}

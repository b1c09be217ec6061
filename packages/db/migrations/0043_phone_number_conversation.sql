-- Texts and calls from one phone number are one conversation at a location: an SMS or MMS joins the open
-- enquiry a call began (or a call one a text began), and a phone call is stored here like any text (it
-- joins the number's conversation only, no longer whatever the customer has open). A message keeps the
-- channel it came by, except SMS and MMS in a text conversation, which take its channel. Otherwise the
-- function is 0041's.
CREATE OR REPLACE FUNCTION store_inbound_batch(lock_keys text[], incoming json) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  wanted int;
  written int;
  threads_open int;
  touched int;
  threads_new int;
  opened_count int;
  people_new int;
  made int;
  stored json;
BEGIN
  IF lock_keys IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(k, 1)) FROM unnest(lock_keys) AS k ORDER BY k;
  END IF;

  WITH batch AS (
    SELECT b.*, concat_ws(':', b.location_id, b.kind, b.address,
                          CASE WHEN b.channel IN ('sms', 'mms', 'phone_call') THEN 'phone' ELSE b.channel END) AS thread
    FROM json_to_recordset(incoming)
      AS b(ordinal int, id uuid, new_customer uuid, new_enquiry uuid, business_id uuid, location_id uuid,
           channel text, kind text, address text, name text, first_name text, phone text, email text,
           external_ids jsonb, external_key text, opt text, message text, meta jsonb, attachments jsonb,
           provider text, provider_message_id text, created_at timestamptz, preview text, title text,
           source text, medium text, campaign text, reopen_since timestamptz, followups jsonb)
  ), matched AS (
    SELECT b.*, c.id AS known_customer, c.name AS known_name, c.phone AS known_phone, c.email AS known_email,
           CASE WHEN e.status = 'open' THEN e.id END AS open_enquiry, e.channel AS open_channel,
           (r.id IS NULL AND (e.id IS NULL OR e.status = 'open') AND CASE
              WHEN c.id IS NULL THEN b.opt IS DISTINCT FROM 'out'
              ELSE (b.name IS NULL OR c.name IS NOT NULL) AND (b.opt IS NULL OR c.sms_opted_out = (b.opt = 'out'))
            END) AS ready
    FROM batch b
    LEFT JOIN messages r ON r.provider = b.provider AND r.provider_message_id = b.provider_message_id
    LEFT JOIN LATERAL (
      (SELECT * FROM customers c
        WHERE b.kind = 'external' AND c.business_id = b.business_id AND c.external_key = b.address)
      UNION ALL
      (SELECT * FROM customers c WHERE b.kind = 'phone' AND c.business_id = b.business_id AND c.phone = b.address)
      UNION ALL
      (SELECT * FROM customers c
        WHERE b.kind = 'email' AND c.business_id = b.business_id AND lower(c.email) = b.address)
      ORDER BY created_at LIMIT 1
    ) c ON true
    LEFT JOIN LATERAL (
      SELECT e.id, e.channel, e.status FROM enquiries e
      WHERE e.customer_id = c.id AND e.location_id = b.location_id
        AND (e.channel = b.channel
             OR (b.channel IN ('sms', 'mms', 'phone_call')
                 AND (e.channel IN ('sms', 'mms', 'phone_call')
                      OR (e.channel = 'widget' AND e.meta ? 'sms_fallback_at'))))
        AND (e.status = 'open' OR e.last_message_at >= b.reopen_since)
      ORDER BY e.status = 'open' DESC, e.last_message_at DESC LIMIT 1
    ) e ON true
  ), chosen AS (
    SELECT t.*,
           first_value(t.new_customer) OVER person AS person_id,
           first_value(t.new_enquiry) OVER thread AS thread_enquiry,
           first_value(t.channel) OVER thread AS thread_channel,
           t.open_enquiry IS NULL AND t.ordinal = min(t.ordinal) OVER thread AS opens
    FROM (
      SELECT m.*, bool_and(m.ready) OVER (PARTITION BY m.business_id, m.kind, m.address) AS whole_customer
      FROM matched m
    ) t
    WHERE t.whole_customer
    WINDOW person AS (PARTITION BY t.business_id, t.kind, t.address ORDER BY t.ordinal),
           thread AS (PARTITION BY t.thread ORDER BY t.ordinal)
  ), new_people AS (
    INSERT INTO customers (id, business_id, name, first_name, phone, email, external_ids, external_key)
    SELECT DISTINCT ON (person_id) person_id, business_id, name, first_name, phone, email, external_ids,
           external_key
    FROM chosen WHERE known_customer IS NULL
    ORDER BY person_id, ordinal
    ON CONFLICT DO NOTHING
    RETURNING id, name, phone, email
  ), people AS (
    SELECT c.ordinal, coalesce(c.known_customer, c.person_id) AS customer_id,
           CASE WHEN c.known_customer IS NULL THEN p.name ELSE c.known_name END AS name,
           CASE WHEN c.known_customer IS NULL THEN p.phone ELSE c.known_phone END AS phone,
           CASE WHEN c.known_customer IS NULL THEN p.email ELSE c.known_email END AS email
    FROM chosen c LEFT JOIN new_people p ON c.known_customer IS NULL AND p.id = c.person_id
  ), newest AS (
    -- Each enquiry's newest message in the batch, which its list entry shows.
    SELECT DISTINCT ON (coalesce(open_enquiry, thread_enquiry)) coalesce(open_enquiry, thread_enquiry) AS enquiry_id,
           open_enquiry IS NULL AS new, created_at, preview,
           min(created_at) OVER (PARTITION BY coalesce(open_enquiry, thread_enquiry)) AS first_at
    FROM chosen ORDER BY coalesce(open_enquiry, thread_enquiry), ordinal DESC
  ), opened AS (
    INSERT INTO enquiries (id, business_id, location_id, customer_id, channel, title, source, medium, campaign,
                           status, seen, last_message_at, last_message_preview, awaiting_since)
    SELECT c.thread_enquiry, c.business_id, c.location_id, pe.customer_id, c.channel, c.title, c.source, c.medium,
           c.campaign, 'open', false, n.created_at, n.preview, n.first_at
    FROM chosen c JOIN people pe ON pe.ordinal = c.ordinal JOIN newest n ON n.enquiry_id = c.thread_enquiry
    WHERE c.opens
    RETURNING *
  ), counted AS (
    -- A new enquiry is open and unassigned: its location counts one more there, and nothing else moves.
    UPDATE locations l SET unassigned_count_open = l.unassigned_count_open + n.n
      FROM (SELECT location_id, count(*) AS n FROM chosen WHERE opens GROUP BY location_id) n
     WHERE l.id = n.location_id
    RETURNING l.id AS location_id, l.assigned_count_open, l.assigned_count_closed, l.unassigned_count_open,
              l.unassigned_count_closed
  ), inserted AS (
    INSERT INTO messages (id, business_id, enquiry_id, customer_id, channel, direction, message, meta,
                          attachments, status, provider, provider_message_id, created_at)
    SELECT c.id, c.business_id, coalesce(c.open_enquiry, c.thread_enquiry), pe.customer_id,
           CASE WHEN c.channel IN ('sms', 'mms') AND coalesce(c.open_channel, c.thread_channel) IN ('sms', 'mms')
                THEN coalesce(c.open_channel, c.thread_channel) ELSE c.channel END,
           'in', c.message, c.meta, c.attachments,
           'received', c.provider, c.provider_message_id, c.created_at
    FROM chosen c JOIN people pe ON pe.ordinal = c.ordinal
    ON CONFLICT (provider, provider_message_id) DO NOTHING
    RETURNING *
  ), staged AS (
    -- The jobs each stored message sets going (its media download, the assistant's answer), committed with it.
    INSERT INTO job_outbox (name, id, data, options)
    SELECT f.name, f.id, f.data, f.options
    FROM chosen c JOIN inserted i ON i.id = c.id
    CROSS JOIN LATERAL jsonb_to_recordset(c.followups) AS f(name text, id uuid, data jsonb, options jsonb)
    ON CONFLICT DO NOTHING
  ), updated AS (
    UPDATE enquiries e
       SET last_message_at = n.created_at, last_message_preview = n.preview, seen = false, snoozed_until = NULL,
           awaiting_since = coalesce(e.awaiting_since, n.first_at), updated_at = now()
      FROM newest n
     WHERE e.id = n.enquiry_id AND NOT n.new AND e.status = 'open'
    RETURNING e.*
  )
  SELECT (SELECT count(*) FROM chosen), (SELECT count(*) FROM inserted),
         (SELECT count(*) FROM newest WHERE NOT new), (SELECT count(*) FROM updated),
         (SELECT count(*) FROM newest WHERE new), (SELECT count(*) FROM opened),
         (SELECT count(DISTINCT person_id) FROM chosen WHERE known_customer IS NULL), (SELECT count(*) FROM new_people),
         coalesce((SELECT json_agg(json_build_object(
                     'ordinal', c.ordinal, 'message', row_to_json(i), 'enquiry', coalesce(row_to_json(u), row_to_json(o)),
                     'customer', json_build_object('name', pe.name, 'phone', pe.phone, 'email', pe.email),
                     'created', c.opens, 'counts', CASE WHEN c.opens THEN row_to_json(k) END) ORDER BY c.ordinal)
                   FROM chosen c
                   JOIN people pe ON pe.ordinal = c.ordinal
                   JOIN inserted i ON i.id = c.id
                   LEFT JOIN updated u ON u.id = c.open_enquiry
                   LEFT JOIN opened o ON o.id = c.thread_enquiry AND c.open_enquiry IS NULL
                   LEFT JOIN counted k ON k.location_id = c.location_id), '[]'::json)
    INTO wanted, written, threads_open, touched, threads_new, opened_count, people_new, made, stored;

  IF written < wanted OR touched < threads_open OR opened_count < threads_new OR made < people_new THEN
    RAISE EXCEPTION 'inbound batch changed meanwhile' USING ERRCODE = 'serialization_failure';
  END IF;
  RETURN stored;
END;
$$;

-- Keeps enquiry_search (the inbox search document of each enquiry) up to date on every message insert, whichever
-- code path inserts it. drizzle-kit cannot express functions or triggers, so this migration is written by hand.
--
-- The document is the message text through the 'simple' configuration (lower-cased words, no stemming and no
-- stop words, the same in every language, so every prefix of a word a person types matches it), stripped of
-- positions (search needs none). A message's first 100,000 characters are indexed (at most 400 kB of words,
-- under PostgreSQL's 1 MB tsvector limit); once an enquiry's document nears that limit, later messages are
-- still stored but add no new words.
CREATE FUNCTION enquiry_search_add_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO enquiry_search AS s (enquiry_id, business_id, document)
  VALUES (NEW.enquiry_id, NEW.business_id, strip(to_tsvector('simple'::regconfig, left(NEW.message, 100000))))
  ON CONFLICT (enquiry_id) DO UPDATE SET document = CASE
    WHEN octet_length(s.document::text) + octet_length(EXCLUDED.document::text) < 900000
      THEN s.document || EXCLUDED.document
    ELSE s.document END;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER messages_enquiry_search AFTER INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION enquiry_search_add_message();--> statement-breakpoint
-- Documents for the messages stored before this migration (each enquiry's first 100,000 characters of text).
INSERT INTO enquiry_search (enquiry_id, business_id, document)
SELECT e.id, e.business_id,
       strip(to_tsvector('simple'::regconfig, left(string_agg(m.message, ' ' ORDER BY m.created_at, m.id), 100000)))
FROM enquiries e JOIN messages m ON m.enquiry_id = e.id
GROUP BY e.id, e.business_id;

-- Inbox search: trigram indexes for substring matching of names, emails, phones and titles (pg_trgm), and GIN
-- indexes that also hold the business id (btree_gin), so one business's search never reads another's rows.
-- Both are trusted extensions (a database owner may create them) and ship with PostgreSQL and PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;

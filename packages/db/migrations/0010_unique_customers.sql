ALTER TABLE "customers" ADD COLUMN "external_key" text;--> statement-breakpoint
-- The channel id each customer was first known by (every customer so far has at most one).
UPDATE "customers" SET "external_key" = (SELECT key || ':' || value FROM jsonb_each_text("external_ids") LIMIT 1)
  WHERE "external_ids" <> '{}'::jsonb;--> statement-breakpoint
-- Customers created twice by concurrent first messages (before these keys existed) become one: the oldest
-- keeps the conversations of the others. By phone, then email (customers known by nothing else), then channel id.
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, phone ORDER BY created_at, id) AS keep FROM "customers" WHERE phone IS NOT NULL)
UPDATE "enquiries" e SET customer_id = m.keep FROM m WHERE e.customer_id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, phone ORDER BY created_at, id) AS keep FROM "customers" WHERE phone IS NOT NULL)
UPDATE "messages" x SET customer_id = m.keep FROM m WHERE x.customer_id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, phone ORDER BY created_at, id) AS keep FROM "customers" WHERE phone IS NOT NULL)
DELETE FROM "customers" c USING m WHERE c.id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, lower(email) ORDER BY created_at, id) AS keep FROM "customers" WHERE phone IS NULL AND external_key IS NULL AND email IS NOT NULL)
UPDATE "enquiries" e SET customer_id = m.keep FROM m WHERE e.customer_id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, lower(email) ORDER BY created_at, id) AS keep FROM "customers" WHERE phone IS NULL AND external_key IS NULL AND email IS NOT NULL)
UPDATE "messages" x SET customer_id = m.keep FROM m WHERE x.customer_id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, lower(email) ORDER BY created_at, id) AS keep FROM "customers" WHERE phone IS NULL AND external_key IS NULL AND email IS NOT NULL)
DELETE FROM "customers" c USING m WHERE c.id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, external_key ORDER BY created_at, id) AS keep FROM "customers" WHERE external_key IS NOT NULL)
UPDATE "enquiries" e SET customer_id = m.keep FROM m WHERE e.customer_id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, external_key ORDER BY created_at, id) AS keep FROM "customers" WHERE external_key IS NOT NULL)
UPDATE "messages" x SET customer_id = m.keep FROM m WHERE x.customer_id = m.id AND m.id <> m.keep;--> statement-breakpoint
WITH m AS (SELECT id, first_value(id) OVER (PARTITION BY business_id, external_key ORDER BY created_at, id) AS keep FROM "customers" WHERE external_key IS NOT NULL)
DELETE FROM "customers" c USING m WHERE c.id = m.id AND m.id <> m.keep;--> statement-breakpoint
DROP INDEX "customers_business_phone_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "customers_business_phone_key" ON "customers" USING btree ("business_id","phone") WHERE "customers"."phone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_business_email_key" ON "customers" USING btree ("business_id",lower("email")) WHERE "customers"."phone" is null and "customers"."external_key" is null and "customers"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_business_external_key" ON "customers" USING btree ("business_id","external_key") WHERE "customers"."external_key" is not null;
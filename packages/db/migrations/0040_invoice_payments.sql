CREATE TABLE "invoice_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"checkout_session_id" text,
	"currency" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"applied_cents" integer DEFAULT 0 NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"unapplied_reason" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "invoices_open_due_idx";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "checkout_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "checkout_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_intent_key" ON "invoice_payments" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice_idx" ON "invoice_payments" USING btree ("invoice_id","received_at");--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_date") WHERE "invoices"."status" in ('sent', 'viewed', 'overdue', 'partially_paid');--> statement-breakpoint
-- Payments taken before each one was kept: one per paid invoice, all of it counted toward the invoice.
INSERT INTO "invoice_payments" ("id", "business_id", "invoice_id", "payment_intent_id", "checkout_session_id", "currency", "amount_cents", "applied_cents", "refunded_cents", "received_at")
SELECT gen_random_uuid(), "business_id", "id", "payment_intent_id", "checkout_session_id", "currency", "amount_paid_cents", "amount_paid_cents", "amount_refunded_cents", coalesce("paid_at", "updated_at")
FROM "invoices" WHERE "amount_paid_cents" > 0 AND "payment_intent_id" IS NOT NULL;--> statement-breakpoint
-- An invoice marked paid for less than its total was paid in part.
UPDATE "invoices" SET "status" = 'partially_paid', "paid_at" = NULL WHERE "status" = 'paid' AND "amount_paid_cents" < "total_cents";

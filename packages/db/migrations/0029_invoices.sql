CREATE TABLE "invoice_branding" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"logo" text,
	"accent_color" text DEFAULT '#1E75FF' NOT NULL,
	"font" text DEFAULT 'noto-sans' NOT NULL,
	"footer" text,
	"payment_terms" text,
	"tax_id" text,
	"currency" text DEFAULT 'AUD' NOT NULL,
	"number_prefix" text DEFAULT 'INV-' NOT NULL,
	"next_number" integer DEFAULT 1 NOT NULL,
	"reminder_days_before" integer DEFAULT 3,
	"reminder_days_after" integer[] DEFAULT '{1,7}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"quantity" numeric(12, 3) NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"tax_rate_bps" integer DEFAULT 0 NOT NULL,
	"amount_cents" integer NOT NULL,
	"tax_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"location_id" uuid,
	"customer_id" uuid,
	"enquiry_id" uuid,
	"created_by" uuid,
	"number" text NOT NULL,
	"bill_to" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"currency" text NOT NULL,
	"subtotal_cents" integer DEFAULT 0 NOT NULL,
	"tax_cents" integer DEFAULT 0 NOT NULL,
	"surcharge_bps" integer DEFAULT 0 NOT NULL,
	"surcharge_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer DEFAULT 0 NOT NULL,
	"amount_paid_cents" integer DEFAULT 0 NOT NULL,
	"amount_refunded_cents" integer DEFAULT 0 NOT NULL,
	"due_date" date,
	"notes" text,
	"close_on_paid" boolean DEFAULT false NOT NULL,
	"secret" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"last_payment_error" text,
	"reminders_sent" text[] DEFAULT '{}'::text[] NOT NULL,
	"sent_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "stripe_details_submitted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "stripe_charges_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "stripe_payouts_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "enquiry_notes" ADD COLUMN "kind" text DEFAULT 'note' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "card_surcharge_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "card_surcharge_bps" integer DEFAULT 150 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_branding" ADD CONSTRAINT "invoice_branding_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_enquiry_id_enquiries_id_fk" FOREIGN KEY ("enquiry_id") REFERENCES "public"."enquiries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_items_invoice_idx" ON "invoice_items" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_business_number_key" ON "invoices" USING btree ("business_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_secret_key" ON "invoices" USING btree ("secret");--> statement-breakpoint
CREATE INDEX "invoices_business_created_idx" ON "invoices" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_customer_idx" ON "invoices" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "invoices_checkout_idx" ON "invoices" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "invoices_payment_intent_idx" ON "invoices" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_date") WHERE "invoices"."status" in ('sent', 'viewed', 'overdue');
CREATE TABLE "one_time_secrets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"business_id" uuid,
	"user_id" uuid,
	"target" text NOT NULL,
	"secret_hash" text NOT NULL,
	"detail" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "signup_meta" jsonb;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "feature_flags" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "stripe_subscription_status" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "subscription_renews_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "subscription_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mobile" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mobile_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "one_time_secrets" ADD CONSTRAINT "one_time_secrets_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_secrets" ADD CONSTRAINT "one_time_secrets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_secrets_hash_key" ON "one_time_secrets" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "one_time_secrets_target_idx" ON "one_time_secrets" USING btree ("kind","target","created_at");--> statement-breakpoint
-- Businesses made before sign-up existed were set up by the operator: they count as verified.
UPDATE "businesses" SET "verified" = true, "verified_at" = "created_at" WHERE "verified" = false;
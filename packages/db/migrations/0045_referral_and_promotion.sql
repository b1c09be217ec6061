ALTER TABLE "businesses" ADD COLUMN "subscription_promotion" jsonb;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "referral_code" text DEFAULT substr(replace(gen_random_uuid()::text, '-', ''), 1, 12);--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_referral_code_unique" UNIQUE("referral_code");--> statement-breakpoint
-- Businesses that signed up before: a readable code from the name, kept unique by the random tail the default gave.
UPDATE "businesses" SET "referral_code" = coalesce(nullif(trim(both '-' from left(lower(regexp_replace(coalesce("name", ''), '[^A-Za-z0-9]+', '-', 'g')), 30)), '') || '-', '') || substr("referral_code", 1, 8);

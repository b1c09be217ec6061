ALTER TABLE "channel_accounts" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "displaced_at" timestamp with time zone;
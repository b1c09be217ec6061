ALTER TABLE "businesses" ADD COLUMN "site_origins" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "intake_limits" jsonb;
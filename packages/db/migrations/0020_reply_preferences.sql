ALTER TABLE "users" ADD COLUMN "send_on_enter" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "assign_on_reply" boolean DEFAULT true NOT NULL;
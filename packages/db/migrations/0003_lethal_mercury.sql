DROP INDEX "enquiries_inbox_idx";--> statement-breakpoint
DROP INDEX "enquiries_assigned_idx";--> statement-breakpoint
CREATE INDEX "enquiries_inbox_idx" ON "enquiries" USING btree ("business_id","location_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "enquiries_assigned_idx" ON "enquiries" USING btree ("business_id","location_id","status","assigned_to","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);
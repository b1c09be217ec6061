DROP INDEX "enquiries_inbox_idx";--> statement-breakpoint
DROP INDEX "enquiries_assigned_idx";--> statement-breakpoint
DROP INDEX "messages_enquiry_idx";--> statement-breakpoint
CREATE INDEX "enquiries_inbox_idx" ON "enquiries" USING btree ("business_id","location_id","status","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "enquiries_assigned_idx" ON "enquiries" USING btree ("business_id","location_id","status","assigned_to","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_enquiry_idx" ON "messages" USING btree ("enquiry_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
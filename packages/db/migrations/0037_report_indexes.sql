DROP INDEX "enquiry_facts_report_idx";--> statement-breakpoint
CREATE INDEX "enquiries_handoff_idx" ON "enquiries" USING btree ("business_id","ai_handoff_at") WHERE "enquiries"."ai_handoff_at" is not null;--> statement-breakpoint
CREATE INDEX "enquiry_facts_period_idx" ON "enquiry_facts" USING btree ("business_id","ended_at");
CREATE TABLE "enquiry_search" (
	"enquiry_id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enquiry_search" ADD CONSTRAINT "enquiry_search_enquiry_id_enquiries_id_fk" FOREIGN KEY ("enquiry_id") REFERENCES "public"."enquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enquiry_search" ADD CONSTRAINT "enquiry_search_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enquiry_search_document_idx" ON "enquiry_search" USING gin ("business_id","document");--> statement-breakpoint
CREATE INDEX "customers_search_name_idx" ON "customers" USING gin ("business_id","name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_search_email_idx" ON "customers" USING gin ("business_id","email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_search_phone_idx" ON "customers" USING gin ("business_id","phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "enquiries_search_title_idx" ON "enquiries" USING gin ("business_id","title" gin_trgm_ops);
ALTER TABLE "messages" DROP CONSTRAINT "messages_business_id_businesses_id_fk";
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_customer_id_customers_id_fk";

CREATE TABLE "ai_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"content_type" text,
	"size" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"error" text,
	"recrawl" text DEFAULT 'never' NOT NULL,
	"crawled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_enquiries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"user_id" uuid,
	"location_id" uuid,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_faqs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"phrasings" text[] DEFAULT '{}'::text[] NOT NULL,
	"location_ids" uuid[],
	"status" text DEFAULT 'active' NOT NULL,
	"origin" text DEFAULT 'manual' NOT NULL,
	"document_id" uuid,
	"section_id" uuid,
	"source_enquiry_id" uuid,
	"target_faq_id" uuid,
	"search" "tsvector" NOT NULL,
	"embedding" real[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_flow_runs" (
	"enquiry_id" uuid PRIMARY KEY NOT NULL,
	"flow_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_flows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"name" text NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"intent" text DEFAULT '' NOT NULL,
	"action" text DEFAULT 'off' NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"location_ids" uuid[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ai_enquiry_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"role" text NOT NULL,
	"message" text NOT NULL,
	"ai" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_profiles" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"services" text DEFAULT '' NOT NULL,
	"hours" text DEFAULT '' NOT NULL,
	"tone" text DEFAULT 'friendly' NOT NULL,
	"handoff_message" text,
	"provider" text,
	"onboarding_completed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_ratings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"enquiry_id" uuid,
	"location_id" uuid,
	"user_id" uuid,
	"rating" text NOT NULL,
	"feedback" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"response" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_sections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"heading" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"search" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_tools" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"method" text DEFAULT 'GET' NOT NULL,
	"url_template" text NOT NULL,
	"headers_encrypted" text,
	"body_template" text,
	"parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "ai_text" text;--> statement-breakpoint
ALTER TABLE "enquiries" ADD COLUMN "ai_handoff_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "enquiries" ADD COLUMN "ai_replies" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "ai_options" jsonb;--> statement-breakpoint
ALTER TABLE "ai_documents" ADD CONSTRAINT "ai_documents_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_enquiries" ADD CONSTRAINT "ai_enquiries_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_enquiries" ADD CONSTRAINT "ai_enquiries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_enquiries" ADD CONSTRAINT "ai_enquiries_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_faqs" ADD CONSTRAINT "ai_faqs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_faqs" ADD CONSTRAINT "ai_faqs_document_id_ai_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."ai_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_faqs" ADD CONSTRAINT "ai_faqs_section_id_ai_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."ai_sections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_faqs" ADD CONSTRAINT "ai_faqs_source_enquiry_id_enquiries_id_fk" FOREIGN KEY ("source_enquiry_id") REFERENCES "public"."enquiries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_flow_runs" ADD CONSTRAINT "ai_flow_runs_enquiry_id_enquiries_id_fk" FOREIGN KEY ("enquiry_id") REFERENCES "public"."enquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_flow_runs" ADD CONSTRAINT "ai_flow_runs_flow_id_ai_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."ai_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_flows" ADD CONSTRAINT "ai_flows_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_messages" ADD CONSTRAINT "ai_messages_ai_enquiry_id_ai_enquiries_id_fk" FOREIGN KEY ("ai_enquiry_id") REFERENCES "public"."ai_enquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_profiles" ADD CONSTRAINT "ai_profiles_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_ratings" ADD CONSTRAINT "ai_ratings_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_ratings" ADD CONSTRAINT "ai_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_sections" ADD CONSTRAINT "ai_sections_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_sections" ADD CONSTRAINT "ai_sections_document_id_ai_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."ai_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_tools" ADD CONSTRAINT "ai_tools_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_documents_business_idx" ON "ai_documents" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_enquiries_business_idx" ON "ai_enquiries" USING btree ("business_id","updated_at");--> statement-breakpoint
CREATE INDEX "ai_faqs_business_idx" ON "ai_faqs" USING btree ("business_id","status","created_at");--> statement-breakpoint
CREATE INDEX "ai_faqs_search_idx" ON "ai_faqs" USING gin ("business_id","search");--> statement-breakpoint
CREATE INDEX "ai_faqs_question_trgm_idx" ON "ai_faqs" USING gin ("question" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ai_flows_business_idx" ON "ai_flows" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_messages_enquiry_idx" ON "ai_messages" USING btree ("ai_enquiry_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_ratings_message_user_key" ON "ai_ratings" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "ai_ratings_business_idx" ON "ai_ratings" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_sections_document_idx" ON "ai_sections" USING btree ("document_id","position");--> statement-breakpoint
CREATE INDEX "ai_sections_search_idx" ON "ai_sections" USING gin ("business_id","search");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_tools_name_key" ON "ai_tools" USING btree ("business_id","name");
CREATE TABLE "sip_credentials" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"username" text NOT NULL,
	"credential_sid" text NOT NULL,
	"last_call_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sip_credentials" ADD CONSTRAINT "sip_credentials_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_credentials" ADD CONSTRAINT "sip_credentials_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_credentials" ADD CONSTRAINT "sip_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sip_credentials_user_location_key" ON "sip_credentials" USING btree ("user_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sip_credentials_domain_username_key" ON "sip_credentials" USING btree ("domain","username");--> statement-breakpoint
CREATE INDEX "sip_credentials_location_idx" ON "sip_credentials" USING btree ("location_id");
CREATE TABLE "location_members" (
	"business_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "location_members_location_id_user_id_pk" PRIMARY KEY("location_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "business_members" ADD COLUMN "all_locations" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "stripe_subscription_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "location_members" ADD CONSTRAINT "location_members_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_members" ADD CONSTRAINT "location_members_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_members" ADD CONSTRAINT "location_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "location_members_user_idx" ON "location_members" USING btree ("business_id","user_id");
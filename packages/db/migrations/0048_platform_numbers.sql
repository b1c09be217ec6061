CREATE TABLE "platform_numbers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"location_id" uuid,
	"channel_account_id" uuid,
	"account_sid" text NOT NULL,
	"phone_number" text NOT NULL,
	"phone_number_sid" text NOT NULL,
	"iso_country" text NOT NULL,
	"number_type" text NOT NULL,
	"registration" text NOT NULL,
	"released_at" timestamp with time zone,
	"release_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_twilio_accounts" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"account_sid" text NOT NULL,
	"auth_token_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_twilio_accounts_account_sid_unique" UNIQUE("account_sid")
);
--> statement-breakpoint
ALTER TABLE "platform_numbers" ADD CONSTRAINT "platform_numbers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_numbers" ADD CONSTRAINT "platform_numbers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_numbers" ADD CONSTRAINT "platform_numbers_channel_account_id_channel_accounts_id_fk" FOREIGN KEY ("channel_account_id") REFERENCES "public"."channel_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_twilio_accounts" ADD CONSTRAINT "platform_twilio_accounts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_numbers_business_idx" ON "platform_numbers" USING btree ("business_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_numbers_held_idx" ON "platform_numbers" USING btree ("phone_number") WHERE released_at is null;
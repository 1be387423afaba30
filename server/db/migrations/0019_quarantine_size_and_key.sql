ALTER TABLE "quarantine_message" ADD COLUMN "content_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "quarantine_message" ADD COLUMN "via_enrollment_key" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "quarantine_message" SET "content_bytes" = octet_length("content");

ALTER TABLE "mail_outbox" ADD COLUMN "license_account_id" integer;--> statement-breakpoint
ALTER TABLE "event_notification_rule" ADD COLUMN "last_sent" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_notification_rule" ADD COLUMN "last_result" varchar(8);--> statement-breakpoint
ALTER TABLE "event_notification_rule" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "report_notification" ADD COLUMN "last_sent" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_notification" ADD COLUMN "last_result" varchar(8);--> statement-breakpoint
ALTER TABLE "report_notification" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE INDEX "mail_outbox_account_created_idx" ON "mail_outbox" USING btree ("license_account_id","created_at");

ALTER TABLE "audit_log" ALTER COLUMN "license_account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "resource" varchar(64);--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "record_id" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "address" varchar(64);--> statement-breakpoint
CREATE INDEX "audit_log_account_resource_idx" ON "audit_log" USING btree ("license_account_id","resource","record_id","time");--> statement-breakpoint
CREATE INDEX "audit_log_time_idx" ON "audit_log" USING btree ("time");--> statement-breakpoint
-- Remote command and gateway rows from before this migration name what they acted on like the rows written
-- from now on (server/commands/audit.ts): the machine when one was addressed, the license account for its key.
UPDATE "audit_log" SET "resource" = 'machine',
  "record_id" = CASE WHEN jsonb_typeof("target"->'rvmIds') = 'array' AND jsonb_array_length("target"->'rvmIds') = 1 THEN ("target"->'rvmIds'->>0)::bigint END
  WHERE "action" LIKE 'command.%' OR "action" = 'gateway.rotateSecret';--> statement-breakpoint
UPDATE "audit_log" SET "resource" = 'account', "record_id" = "license_account_id" WHERE "action" = 'gateway.rotateEnrollmentKey';

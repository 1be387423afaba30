CREATE TABLE "account_usage_15m" (
	"license_account_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"sessions" integer NOT NULL,
	"items" integer NOT NULL,
	"accepted" integer NOT NULL,
	"rejected" integer NOT NULL,
	"refund" numeric(14, 2) NOT NULL,
	CONSTRAINT "account_usage_15m_license_account_id_bucket_pk" PRIMARY KEY("license_account_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "rvm_cleaning_state" (
	"rvm_id" integer PRIMARY KEY NOT NULL,
	"license_account_id" integer NOT NULL,
	"last_completed_time" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rvm_hourly_usage" (
	"rvm_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"license_account_id" integer NOT NULL,
	"sessions" integer NOT NULL,
	"items" integer NOT NULL,
	"accepted" integer NOT NULL,
	"rejected" integer NOT NULL,
	"refund" numeric(14, 2) NOT NULL,
	CONSTRAINT "rvm_hourly_usage_rvm_id_hour_pk" PRIMARY KEY("rvm_id","hour")
);
--> statement-breakpoint
ALTER TABLE "rvm_cleaning_state" ADD CONSTRAINT "rvm_cleaning_state_rvm_id_rvm_id_fk" FOREIGN KEY ("rvm_id") REFERENCES "public"."rvm"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rvm_hourly_usage" ADD CONSTRAINT "rvm_hourly_usage_rvm_id_rvm_id_fk" FOREIGN KEY ("rvm_id") REFERENCES "public"."rvm"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rvm_cleaning_state_account_time_idx" ON "rvm_cleaning_state" USING btree ("license_account_id","last_completed_time");--> statement-breakpoint
CREATE INDEX "rvm_hourly_usage_account_hour_idx" ON "rvm_hourly_usage" USING btree ("license_account_id","hour","rvm_id","items","rejected");--> statement-breakpoint
-- Backfill (hand-written; server/dashboard/rollup.ts fillRollups has the same sums): the roll-ups of what is already stored,
-- in time order as the gateway would have written them.
INSERT INTO "account_usage_15m" ("license_account_id", "bucket", "sessions", "items", "accepted", "rejected", "refund")
SELECT "license_account_id", to_timestamp(floor(extract(epoch from "start_time") / 900) * 900), count(*), sum("item_count"), sum("accepted_count"), sum("rejected_count"), sum("total_refund")
FROM "consumer_session" GROUP BY 1, 2 ORDER BY 2, 1;--> statement-breakpoint
INSERT INTO "rvm_hourly_usage" ("rvm_id", "hour", "license_account_id", "sessions", "items", "accepted", "rejected", "refund")
SELECT "rvm_id", to_timestamp(floor(extract(epoch from "start_time") / 3600) * 3600), "license_account_id", count(*), sum("item_count"), sum("accepted_count"), sum("rejected_count"), sum("total_refund")
FROM "consumer_session" GROUP BY 1, 2, 3 ORDER BY 2, 1;--> statement-breakpoint
INSERT INTO "rvm_cleaning_state" ("rvm_id", "license_account_id", "last_completed_time")
SELECT "rvm_id", min("license_account_id"), max("start_time") FROM "service_session" WHERE "cleaning_outcome" = 'completed' GROUP BY 1 ORDER BY 1;--> statement-breakpoint
ANALYZE "account_usage_15m";--> statement-breakpoint
ANALYZE "rvm_hourly_usage";--> statement-breakpoint
ANALYZE "rvm_cleaning_state";

CREATE TABLE "deployment_rollout" (
	"deployment_id" integer PRIMARY KEY NOT NULL,
	"gate_since" timestamp with time zone DEFAULT now() NOT NULL,
	"gate_result" jsonb,
	"checked_time" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "deployment_rollout" ADD CONSTRAINT "deployment_rollout_deployment_id_deployment_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployment"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "deployment_target_tally" (
	"deployment_id" integer NOT NULL,
	"wave" smallint NOT NULL,
	"status" varchar(24) NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_target_tally" ADD CONSTRAINT "deployment_target_tally_deployment_id_deployment_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_target_tally_deployment_idx" ON "deployment_target_tally" USING btree ("deployment_id");--> statement-breakpoint
-- One delta row per (deployment, wave, status) a statement on deployment_target changed (server/db/schema/deployments.ts
-- says why). A delete cascading from its deployment adds nothing: the tally goes with the deployment.
CREATE OR REPLACE FUNCTION "deployment_target_tally_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO deployment_target_tally (deployment_id, wave, status, n)
      SELECT deployment_id, wave, status, count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO deployment_target_tally (deployment_id, wave, status, n)
      SELECT o.deployment_id, o.wave, o.status, -count(*) FROM old_rows o
      WHERE EXISTS (SELECT 1 FROM deployment d WHERE d.id = o.deployment_id) GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO deployment_target_tally (deployment_id, wave, status, n)
      SELECT deployment_id, wave, status, sum(n) FROM (
        SELECT deployment_id, wave, status, 1 AS n FROM new_rows
        UNION ALL SELECT deployment_id, wave, status, -1 FROM old_rows) AS delta
      GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "deployment_target_tally_insert" AFTER INSERT ON "deployment_target"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "deployment_target_tally_track"();
--> statement-breakpoint
CREATE TRIGGER "deployment_target_tally_update" AFTER UPDATE ON "deployment_target"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "deployment_target_tally_track"();
--> statement-breakpoint
CREATE TRIGGER "deployment_target_tally_delete" AFTER DELETE ON "deployment_target"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "deployment_target_tally_track"();
--> statement-breakpoint
-- Also under session_replication_role = replica, which PGlite's insert of a deployment's targets sets
-- (server/deployments/targets.ts insertTargets).
ALTER TABLE "deployment_target" ENABLE ALWAYS TRIGGER "deployment_target_tally_insert";
--> statement-breakpoint
ALTER TABLE "deployment_target" ENABLE ALWAYS TRIGGER "deployment_target_tally_update";
--> statement-breakpoint
ALTER TABLE "deployment_target" ENABLE ALWAYS TRIGGER "deployment_target_tally_delete";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "deployment_target_tally_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM deployment_target_tally;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "deployment_target_tally_truncate" AFTER TRUNCATE ON "deployment_target"
  FOR EACH STATEMENT EXECUTE FUNCTION "deployment_target_tally_clear"();
--> statement-breakpoint
ALTER TABLE "deployment_target" ENABLE ALWAYS TRIGGER "deployment_target_tally_truncate";
--> statement-breakpoint
INSERT INTO "deployment_target_tally" ("deployment_id", "wave", "status", "n")
  SELECT "deployment_id", "wave", "status", count(*) FROM "deployment_target" GROUP BY 1, 2, 3;

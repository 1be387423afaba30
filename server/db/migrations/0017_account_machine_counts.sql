CREATE TABLE "account_machine_counts" (
	"license_account_id" integer PRIMARY KEY NOT NULL,
	"machines" integer NOT NULL
);
--> statement-breakpoint
-- Kept by row triggers on rvm (server/db/schema/fleet.ts says why); filled from today's machines.
CREATE OR REPLACE FUNCTION "account_machine_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE account_machine_counts SET machines = machines - 1 WHERE license_account_id = OLD.license_account_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO account_machine_counts AS c (license_account_id, machines) VALUES (NEW.license_account_id, 1)
    ON CONFLICT (license_account_id) DO UPDATE SET machines = c.machines + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "rvm_account_machines_insert_delete" AFTER INSERT OR DELETE ON "rvm"
  FOR EACH ROW EXECUTE FUNCTION "account_machine_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "rvm_account_machines_update" AFTER UPDATE OF "license_account_id" ON "rvm"
  FOR EACH ROW WHEN (OLD.license_account_id IS DISTINCT FROM NEW.license_account_id)
  EXECUTE FUNCTION "account_machine_counts_track"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "account_machine_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_machine_counts SET machines = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "rvm_account_machines_truncate" AFTER TRUNCATE ON "rvm"
  FOR EACH STATEMENT EXECUTE FUNCTION "account_machine_counts_clear"();
--> statement-breakpoint
INSERT INTO "account_machine_counts" ("license_account_id", "machines")
  SELECT "license_account_id", count(*) FROM "rvm" GROUP BY 1;

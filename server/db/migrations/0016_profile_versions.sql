CREATE TABLE "account_model_versions" (
	"license_account_id" integer NOT NULL,
	"term_type" varchar(32) NOT NULL,
	"software_version" varchar(32) NOT NULL,
	"machines" integer NOT NULL,
	CONSTRAINT "account_model_versions_license_account_id_term_type_software_version_pk" PRIMARY KEY("license_account_id","term_type","software_version")
);
--> statement-breakpoint
-- Kept by row triggers on rvm (server/db/schema/dashboard.ts says why); filled from today's machines.
CREATE OR REPLACE FUNCTION "account_model_versions_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.software_version IS NOT NULL THEN
    UPDATE account_model_versions SET machines = machines - 1
    WHERE license_account_id = OLD.license_account_id AND term_type = OLD.term_type AND software_version = OLD.software_version;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.software_version IS NOT NULL THEN
    INSERT INTO account_model_versions AS v (license_account_id, term_type, software_version, machines)
    VALUES (NEW.license_account_id, NEW.term_type, NEW.software_version, 1)
    ON CONFLICT (license_account_id, term_type, software_version) DO UPDATE SET machines = v.machines + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "rvm_model_versions_insert_delete" AFTER INSERT OR DELETE ON "rvm"
  FOR EACH ROW EXECUTE FUNCTION "account_model_versions_track"();
--> statement-breakpoint
CREATE TRIGGER "rvm_model_versions_update" AFTER UPDATE OF "license_account_id", "term_type", "software_version" ON "rvm"
  FOR EACH ROW WHEN (OLD.license_account_id IS DISTINCT FROM NEW.license_account_id OR OLD.term_type IS DISTINCT FROM NEW.term_type
    OR OLD.software_version IS DISTINCT FROM NEW.software_version)
  EXECUTE FUNCTION "account_model_versions_track"();
--> statement-breakpoint
INSERT INTO "account_model_versions" ("license_account_id", "term_type", "software_version", "machines")
  SELECT "license_account_id", "term_type", "software_version", count(*) FROM "rvm" WHERE "software_version" IS NOT NULL GROUP BY 1, 2, 3;

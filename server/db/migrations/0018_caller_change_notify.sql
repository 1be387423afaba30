-- Every instance keeps the callers it resolved (server/auth/callerCache.ts) and forgets them on this signal
-- (server/db/callerChanges.ts): any change to what a caller is read from. Statement-level, so a bulk change
-- sends one notification; PostgreSQL sends it at commit, and folds repeats within a transaction.
CREATE OR REPLACE FUNCTION "rvm_notify_caller_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rvm_caller_changes', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Deletes that removed rows only: every sign-in's housekeeping delete (tokens a day past their lifetime)
-- usually removes none, and must not make every instance forget every caller.
CREATE OR REPLACE FUNCTION "rvm_notify_caller_rows_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM gone) THEN
    PERFORM pg_notify('rvm_caller_changes', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Not on token inserts (a new token is in nobody's memory) nor on "last seen" (no right depends on it).
CREATE TRIGGER "sys_token_caller_change" AFTER UPDATE OF "revoked_at", "revoke_reason", "user_id", "token_hash", "created_at", "utc_offset_minutes" OR TRUNCATE ON "sys_token"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "sys_token_caller_change_delete" AFTER DELETE ON "sys_token" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_rows_gone"();
--> statement-breakpoint
CREATE TRIGGER "sys_user_caller_change" AFTER UPDATE OR DELETE OR TRUNCATE ON "sys_user"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "sys_user_role_caller_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sys_user_role"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "sys_role_caller_change" AFTER UPDATE OR DELETE OR TRUNCATE ON "sys_role"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "sys_role_permission_caller_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sys_role_permission"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "sys_permission_caller_change" AFTER UPDATE OR DELETE OR TRUNCATE ON "sys_permission"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "license_account_caller_change" AFTER UPDATE OR DELETE OR TRUNCATE ON "license_account"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "license_account_user_relation_caller_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "license_account_user_relation"
  FOR EACH STATEMENT EXECUTE FUNCTION "rvm_notify_caller_change"();

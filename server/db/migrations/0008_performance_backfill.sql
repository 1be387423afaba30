-- Backfill of the performance roll-ups (server/db/schema/performance.ts; server/dashboard/rollup.ts fillRollups has the
-- same sums for the demo seed), and the trigger that moves a machine's share when it changes fleet or is deleted.
-- Items come from the machines' hourly roll-up (3.5 M rows at 10,000 machines x 90 days, not 4.4 M sessions).
INSERT INTO "fleet_hourly_usage" ("fleet_id", "hour", "license_account_id", "sessions", "items", "accepted", "rejected", "refund", "errors")
SELECT r."fleet_id", h."hour", min(r."license_account_id"), sum(h."sessions"), sum(h."items"), sum(h."accepted"), sum(h."rejected"), sum(h."refund"), 0
FROM "rvm_hourly_usage" h JOIN "rvm" r ON r."id" = h."rvm_id" GROUP BY 1, 2 ORDER BY 1, 2;--> statement-breakpoint
INSERT INTO "fleet_hourly_usage" ("fleet_id", "hour", "license_account_id", "errors")
SELECT r."fleet_id", to_timestamp(floor(extract(epoch from e."raised_time") / 3600) * 3600), min(r."license_account_id"), count(*)
FROM "rvm_event" e JOIN "rvm" r ON r."id" = e."rvm_id" WHERE e."severity" = 'error' GROUP BY 1, 2 ORDER BY 1, 2
ON CONFLICT ("fleet_id", "hour") DO UPDATE SET "errors" = "fleet_hourly_usage"."errors" + excluded."errors";--> statement-breakpoint
INSERT INTO "fleet_daily_errors" ("fleet_id", "day", "code", "license_account_id", "raised", "cleared", "cleared_ms")
SELECT r."fleet_id", (e."raised_time" AT TIME ZONE 'UTC')::date, e."code", min(r."license_account_id"), count(*), count(e."cleared_time"),
  coalesce(sum(round(extract(epoch from (e."cleared_time" - e."raised_time")) * 1000)), 0)
FROM "rvm_event" e JOIN "rvm" r ON r."id" = e."rvm_id" WHERE e."severity" = 'error' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;--> statement-breakpoint
ANALYZE "fleet_hourly_usage";--> statement-breakpoint
ANALYZE "fleet_daily_errors";--> statement-breakpoint
-- A machine's share of the fleet roll-ups: its hourly usage and error events, per hour and per (UTC day, code).
CREATE OR REPLACE FUNCTION performance_shift_machine(machine integer, from_fleet integer, to_fleet integer, account integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- One statement per table: the share is subtracted from the old fleet's rows and added to the new fleet's (none on delete).
  WITH share AS (
    SELECT x.hour, sum(x.sessions) AS sessions, sum(x.items) AS items, sum(x.accepted) AS accepted, sum(x.rejected) AS rejected,
      sum(x.refund) AS refund, sum(x.errors) AS errors
    FROM (
      SELECT h.hour, h.sessions, h.items, h.accepted, h.rejected, h.refund, 0 AS errors FROM rvm_hourly_usage h WHERE h.rvm_id = machine
      UNION ALL
      SELECT to_timestamp(floor(extract(epoch from e.raised_time) / 3600) * 3600), 0, 0, 0, 0, 0, 1 FROM rvm_event e
      WHERE e.rvm_id = machine AND e.severity = 'error'
    ) x GROUP BY x.hour
  ), taken AS (
    UPDATE fleet_hourly_usage f SET sessions = f.sessions - s.sessions, items = f.items - s.items, accepted = f.accepted - s.accepted,
      rejected = f.rejected - s.rejected, refund = f.refund - s.refund, errors = f.errors - s.errors
    FROM share s WHERE f.fleet_id = from_fleet AND f.hour = s.hour
    RETURNING 1
  )
  INSERT INTO fleet_hourly_usage (fleet_id, hour, license_account_id, sessions, items, accepted, rejected, refund, errors)
  SELECT to_fleet, s.hour, account, s.sessions, s.items, s.accepted, s.rejected, s.refund, s.errors FROM share s
  WHERE to_fleet IS NOT NULL ORDER BY s.hour
  ON CONFLICT (fleet_id, hour) DO UPDATE SET sessions = fleet_hourly_usage.sessions + excluded.sessions, items = fleet_hourly_usage.items + excluded.items,
    accepted = fleet_hourly_usage.accepted + excluded.accepted, rejected = fleet_hourly_usage.rejected + excluded.rejected,
    refund = fleet_hourly_usage.refund + excluded.refund, errors = fleet_hourly_usage.errors + excluded.errors;
  WITH share AS (
    SELECT (e.raised_time AT TIME ZONE 'UTC')::date AS day, e.code, count(*) AS raised, count(e.cleared_time) AS cleared,
      coalesce(sum(round(extract(epoch from (e.cleared_time - e.raised_time)) * 1000)), 0) AS cleared_ms
    FROM rvm_event e WHERE e.rvm_id = machine AND e.severity = 'error' GROUP BY 1, 2
  ), taken AS (
    UPDATE fleet_daily_errors f SET raised = f.raised - s.raised, cleared = f.cleared - s.cleared, cleared_ms = f.cleared_ms - s.cleared_ms
    FROM share s WHERE f.fleet_id = from_fleet AND f.day = s.day AND f.code = s.code
    RETURNING 1
  )
  INSERT INTO fleet_daily_errors (fleet_id, day, code, license_account_id, raised, cleared, cleared_ms)
  SELECT to_fleet, s.day, s.code, account, s.raised, s.cleared, s.cleared_ms FROM share s
  WHERE to_fleet IS NOT NULL ORDER BY s.day, s.code
  ON CONFLICT (fleet_id, day, code) DO UPDATE SET raised = fleet_daily_errors.raised + excluded.raised, cleared = fleet_daily_errors.cleared + excluded.cleared,
    cleared_ms = fleet_daily_errors.cleared_ms + excluded.cleared_ms;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION performance_machine_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM performance_shift_machine(OLD.id, OLD.fleet_id, NULL, OLD.license_account_id);
    RETURN OLD;
  END IF;
  PERFORM performance_shift_machine(NEW.id, OLD.fleet_id, NEW.fleet_id, NEW.license_account_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "rvm_fleet_changed_performance" AFTER UPDATE OF "fleet_id" ON "rvm" FOR EACH ROW
  WHEN (OLD."fleet_id" IS DISTINCT FROM NEW."fleet_id") EXECUTE FUNCTION performance_machine_changed();--> statement-breakpoint
-- Before the row goes: its sessions and events are deleted by the cascade after this.
CREATE TRIGGER "rvm_deleted_performance" BEFORE DELETE ON "rvm" FOR EACH ROW EXECUTE FUNCTION performance_machine_changed();

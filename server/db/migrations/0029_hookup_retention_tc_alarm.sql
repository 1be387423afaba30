ALTER TABLE "event_notification" ADD COLUMN "mail_error" text;--> statement-breakpoint
CREATE INDEX "consumer_session_item_tc_idx" ON "consumer_session_item" USING btree ("license_account_id","session_id") WHERE "consumer_session_item"."reject_reason" in (101, 102, 103);--> statement-breakpoint
CREATE INDEX "hookup_message_settled_idx" ON "hookup_message" USING btree ("status","last_send_time") WHERE "hookup_message"."status" <> 'notSent';--> statement-breakpoint
-- The tracing-code list (docs/api-hookups.md "Tracing-code lists") as two branches instead of one OR over every
-- item: items refused for their code (consumer_session_item_tc_idx) and accepted items of scheme machines (their
-- sessions through consumer_session_rvm_start_idx). The list's filters (account, machine, time, outcome) reach
-- each branch, and an outcome filter drops the branch that cannot match.
CREATE OR REPLACE VIEW "hookup_tc_transaction" AS
SELECT (i.session_id * 100000 + i.seq)::bigint AS id, i.license_account_id, s.rvm_id, s.id AS session_id, s.start_time AS time,
  i.seq, i.barcode, i.item_type, i.refund, i.reject_reason,
  CASE i.reject_reason WHEN 101 THEN 'missing' WHEN 102 THEN 'alreadyRedeemed' ELSE 'invalid' END::text AS outcome
FROM consumer_session_item i JOIN consumer_session s ON s.id = i.session_id
WHERE i.reject_reason IN (101, 102, 103)
UNION ALL
SELECT (i.session_id * 100000 + i.seq)::bigint, i.license_account_id, s.rvm_id, s.id, s.start_time,
  i.seq, i.barcode, i.item_type, i.refund, i.reject_reason, 'redeemed'::text
FROM consumer_session s JOIN consumer_session_item i ON i.session_id = s.id AND i.reject_reason IS NULL
WHERE s.rvm_id IN (
  SELECT r.id FROM rvm r WHERE r.fleet_id IN (
    WITH RECURSIVE scheme_fleet(fleet_id) AS (
      SELECT af.fleet_id FROM hookup_app_fleet af JOIN hookup_app a ON a.id = af.app_id
      WHERE a.api_type = 'vendorConnect' AND a.enabled
      UNION
      SELECT f.id FROM fleet f JOIN scheme_fleet s ON f.parent_id = s.fleet_id
    ) SELECT fleet_id FROM scheme_fleet));
--> statement-breakpoint
-- The notification list: an alarm mail whose sending failed (event_notification.mail_error) shows as failed
-- with its reason; the other rows are as in 0025.
CREATE OR REPLACE VIEW "hookup_notification" AS
SELECT (m.id * 4)::bigint AS id, m.license_account_id,
  CASE WHEN m.family = 'vendor' THEN 'vendorConnect' ELSE 'webhook' END AS channel,
  a.name::text AS target, m.event_type::text AS subject, m.status::text AS status, m.attempts::int AS attempts,
  coalesce(m.last_send_time, m.created_time) AS time, m.last_response_excerpt::text AS detail, m.message_id::text AS reference
FROM hookup_message m JOIN hookup_app a ON a.id = m.app_id
UNION ALL
SELECT (o.id::bigint * 4 + 1) AS id, run.license_account_id, 'reportMail', rm.recipient::text, o.subject,
  CASE WHEN rm.delivered_time IS NOT NULL THEN 'success' WHEN rm.error IS NOT NULL THEN 'fail' ELSE 'notSent' END,
  rm.attempts::int, coalesce(rm.delivered_time, o.created_at), rm.error, rn.name::text
FROM report_notification_mail rm
  JOIN report_notification_run run ON run.id = rm.run_id
  JOIN report_notification rn ON rn.id = run.subscription_id
  JOIN mail_outbox o ON o.id = rm.outbox_id
UNION ALL
SELECT (n.id * 4 + 2)::bigint AS id, n.license_account_id, 'alarmMail', r.recipients, n.kind || ' ' || e.code || ' ' || m.term_no,
  CASE WHEN n.mail_error IS NULL THEN 'success' ELSE 'fail' END, 1, n.sent_time, n.mail_error, r.name::text
FROM event_notification n
  JOIN event_notification_rule r ON r.id = n.rule_id
  JOIN rvm_event e ON e.id = n.event_id
  JOIN rvm m ON m.id = e.rvm_id;

-- The machine list's "profile mismatch" flag (server/dashboard/definitions.ts) takes, on every page, the most
-- common software version per license account and model over ALL machines: with this index that is an
-- index-only scan (11 pages at 10,000 machines) instead of reading every machine row (1,379 pages).
CREATE INDEX IF NOT EXISTS "rvm_account_type_version_idx" ON "rvm" USING btree ("license_account_id", "term_type", "software_version");

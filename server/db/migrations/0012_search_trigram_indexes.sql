-- Trigram GIN indexes for search (server/fleet/search.ts) and the machine list's contains filters:
-- `ILIKE '%text%'` and `ILIKE 'text%'` are answered from them instead of reading every machine.
-- Other declared contains filters get theirs from the declarations at start (server/db/trigramIndexes.ts,
-- same names). Terms under 3 characters have no trigram: the planner reads the table (or the term_no index) then.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rvm_term_no_trgm_idx" ON "rvm" USING gin ("term_no" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rvm_serial_number_trgm_idx" ON "rvm" USING gin ("serial_number" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rvm_address_trgm_idx" ON "rvm" USING gin ("address" gin_trgm_ops);

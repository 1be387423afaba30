-- Every message of a machine updates its row (last_seen_time), which adds entries to these GIN indexes.
-- They go to the index's pending list (cheap writes), which every search then reads in full until it is
-- merged: autovacuum does that on PostgreSQL, nothing does on PGlite (measured: searches 3-5x slower than
-- without the index after seeding 10,000 machines). A 64 kB limit merges it on the insert that fills it.
ALTER INDEX "rvm_term_no_trgm_idx" SET (gin_pending_list_limit = 64);
--> statement-breakpoint
ALTER INDEX "rvm_serial_number_trgm_idx" SET (gin_pending_list_limit = 64);
--> statement-breakpoint
ALTER INDEX "rvm_address_trgm_idx" SET (gin_pending_list_limit = 64);
--> statement-breakpoint
SELECT gin_clean_pending_list('rvm_term_no_trgm_idx'::regclass), gin_clean_pending_list('rvm_serial_number_trgm_idx'::regclass), gin_clean_pending_list('rvm_address_trgm_idx'::regclass);

// Resolved callers kept in memory per token, so a request needs no caller query: the page answer's
// third statement (bench/pageBreakdown.ts). Safe because nothing stale can be served:
// - every change to what a caller is read from forgets every entry (server/db/callerChanges.ts: the
//   database's notifications, and this process's own writes as they complete);
// - while those changes cannot be heard (not listening yet, connection lost), nothing is served from here;
// - a load that overlapped a change is not kept (generations);
// - an entry lives `callerCacheSeconds` at most, and a refusal (revoked, expired, idle) is never
//   answered from memory: it is checked again against the database (principal.ts `loadCaller`).
import type { CallerChangeFeed } from '../db/callerChanges';

/** The most tokens kept: beyond it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

export class CallerCache<Entry> {
  private readonly entries = new Map<string, { entry: Entry; keptAt: number }>();
  private generationNow = 0;
  /** Requests answered from memory since start (what the tests and the bench look at). */
  hits = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: CallerChangeFeed,
    private readonly ttlMs: number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {
    this.unsubscribe = feed.subscribe(() => {
      this.generationNow += 1;
      this.entries.clear();
    });
  }

  /** Read before a load: `remember` keeps the loaded entry only if nothing changed meanwhile. */
  get generation() {
    return this.generationNow;
  }

  private get usable() {
    return this.ttlMs > 0 && this.feed.live;
  }

  get(key: string): Entry | undefined {
    if (!this.usable) return undefined;
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    if (Date.now() - kept.keptAt > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    this.hits += 1;
    return kept.entry;
  }

  remember(key: string, entry: Entry, generation: number) {
    if (!this.usable || generation !== this.generationNow) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { entry, keptAt: Date.now() });
  }

  forget(key: string) {
    this.entries.delete(key);
  }

  get size() {
    return this.entries.size;
  }

  close() {
    this.unsubscribe();
    this.entries.clear();
  }
}

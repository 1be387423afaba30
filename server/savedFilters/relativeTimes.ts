// Machine-list bodies with time limits relative to "now" (`now-7d`, the card catalogue's filters in
// resources/dashboard.ts), resolved to an instant when used. The dashboard's cards carry them resolved;
// the built-in saved filters (server/seed/builtInFilters.ts) store some of them as they are, so they
// never go stale, and every read of a saved filter resolves them.
const RELATIVE = /^now-(\d{1,5})([hd])$/;
const HOUR = 3_600_000;

/** The filter with every `now-<n>h` / `now-<n>d` value replaced by that instant before `now` (ISO). */
export const resolveRelativeTimes = <T extends Record<string, unknown>>(filter: T, now: Date): T =>
  Object.fromEntries(
    Object.entries(filter).map(([name, value]) => {
      const match = typeof value === 'string' ? RELATIVE.exec(value) : null;
      if (!match) return [name, value];
      const hours = Number(match[1]) * (match[2] === 'd' ? 24 : 1);
      return [name, new Date(now.getTime() - hours * HOUR).toISOString()];
    }),
  ) as T;

// The unit projects pin the time zone (vite.config.ts: `unit` Hong Kong, `unit-ny` New York) through
// `env: { TZ }`. Node reads TZ when it is assigned, so assign it again here before any test runs,
// and refuse to run when the zone did not take (every local-time test would then prove nothing).
const zone = process.env.TZ;
if (!zone) throw new Error('the unit projects must set TZ (vite.config.ts)');
process.env.TZ = zone;
if (Intl.DateTimeFormat().resolvedOptions().timeZone !== zone) {
  throw new Error(`TZ=${zone} did not take: the tests run in ${Intl.DateTimeFormat().resolvedOptions().timeZone}`);
}

// The replay dialog's range as sent (docs/api-hookups.md "Resend and replay"); plain time arithmetic, no local time.
const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
const startOfMinute = (time: Date) => new Date(Math.floor(time.getTime() / MINUTE_MS) * MINUTE_MS);

/**
 * The range sent: whole minutes, as the minute-precision pickers show it, "to" included to the end of its
 * minute. So the default "to" (now) also takes a message stamped a few seconds ahead of this browser's
 * clock (machines' clocks drift), and a "to" picked by hand means the minute it shows.
 */
export const replayRange = ({ from, to }: { from: string | Date; to: string | Date }) => ({
  from: startOfMinute(new Date(from)).toISOString(),
  to: new Date(startOfMinute(new Date(to)).getTime() + MINUTE_MS - 1).toISOString(),
});

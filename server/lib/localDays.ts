// Local days at a fixed UTC offset (the caller's, in minutes): day numbers counted from 1970-01-01 local.
// Shared by the dashboard's periods and the performance screen's ranges.

export const DAY_MS = 86_400_000;

export const localDayOf = (time: number, offsetMinutes: number) => Math.floor((time + offsetMinutes * 60_000) / DAY_MS);
export const dayStart = (day: number, offsetMinutes: number) => new Date(day * DAY_MS - offsetMinutes * 60_000);
/** `YYYY-MM-DD` of a local day number. */
export const dayLabel = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

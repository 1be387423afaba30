// The periods of report notifications, in the license account's time zone. License accounts have no
// time zone field yet, so every account uses REPORT_TIME_ZONE (an IANA name, default Asia/Hong_Kong,
// the demo fleet's, like its HKD currency): `accountTimeZone` is the one place to change when they get one.
//
// Weekly: due Monday 00:00 local, covering the previous Monday 00:00 to this Monday 00:00.
// Monthly: due on the 1st at 00:00 local, covering the previous month. Boundaries are local midnights
// computed on the calendar, so a week across a daylight-saving change is 167 or 169 hours long.

export type ReportPeriod = 'weekly' | 'monthly';

export interface PeriodWindow {
  /** First instant covered (a local midnight). */
  start: Date;
  /** First instant not covered, and the moment the period fell due (a local midnight). */
  end: Date;
}

const DEFAULT_TIME_ZONE = 'Asia/Hong_Kong';

export const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

interface LocalDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string) => {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
};

/** The wall-clock fields of `instant` in `zone`. */
export const localParts = (instant: Date, zone: string) => {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
};

/** Milliseconds `zone` is ahead of UTC at `instant`. */
export const offsetAt = (instant: number, zone: string) => {
  const local = localParts(new Date(instant), zone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
};

/** The instant of local midnight starting `date` in `zone` (a midnight skipped by a DST jump: the first instant after). */
export const localMidnight = ({ year, month, day }: LocalDate, zone: string): Date => {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall - offsetAt(wall, zone);
  // Twice: the offset at the first guess may differ from the one at the answer (a DST change between).
  guess = wall - offsetAt(guess, zone);
  return new Date(guess);
};

/** Calendar arithmetic on local dates (no time zone involved). */
const addDays = ({ year, month, day }: LocalDate, days: number): LocalDate => {
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};
const addMonths = ({ year, month }: LocalDate, months: number): LocalDate => {
  const date = new Date(Date.UTC(year, month - 1 + months, 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: 1 };
};

/** The local date of `instant`, and its weekday (Monday 1 .. Sunday 7). */
const localDateOf = (instant: Date, zone: string) => {
  const { year, month, day } = localParts(instant, zone);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay() || 7;
  return { date: { year, month, day }, weekday };
};

/** The latest period that fell due at or before `now`: the one a run at `now` produces. */
export const latestDuePeriod = (period: ReportPeriod, now: Date, zone: string): PeriodWindow => {
  const { date, weekday } = localDateOf(now, zone);
  if (period === 'weekly') {
    const monday = addDays(date, 1 - weekday);
    return { start: localMidnight(addDays(monday, -7), zone), end: localMidnight(monday, zone) };
  }
  const first = { ...date, day: 1 };
  return { start: localMidnight(addMonths(first, -1), zone), end: localMidnight(first, zone) };
};

/** When the next period falls due after `now`. */
export const nextDueTime = (period: ReportPeriod, now: Date, zone: string): Date => {
  const { date, weekday } = localDateOf(now, zone);
  return period === 'weekly' ? localMidnight(addDays(date, 8 - weekday), zone) : localMidnight(addMonths({ ...date, day: 1 }, 1), zone);
};

/** 'YYYY-MM-DD' of an instant in `zone`. */
export const localDateText = (instant: Date, zone: string) => {
  const { year, month, day } = localParts(instant, zone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
};

/** 'YYYY-MM-DD' of the last day a period covers (the day before its end). */
export const lastDayText = (window: PeriodWindow, zone: string) => localDateText(new Date(window.end.getTime() - 1), zone);

/** Minutes `zone` is ahead of UTC at `instant` (the generated file's local times). */
export const utcOffsetMinutesAt = (instant: Date, zone: string) => Math.round(offsetAt(instant.getTime(), zone) / 60_000);

const configuredZone = (): string => {
  const raw = process.env.REPORT_TIME_ZONE?.trim();
  if (!raw) return DEFAULT_TIME_ZONE;
  if (!isTimeZone(raw)) throw new Error(`REPORT_TIME_ZONE must be an IANA time zone such as Asia/Hong_Kong, got "${raw}"`);
  // Reports are computed from hourly roll-ups (server/reports/query.ts): local midnights must be whole UTC hours.
  if (offsetAt(Date.now(), raw) % 3_600_000 !== 0) throw new Error(`REPORT_TIME_ZONE must be a whole number of hours from UTC, got "${raw}"`);
  return raw;
};

/** Read once at start: a wrong REPORT_TIME_ZONE stops the server at once, not at the first due run. */
export const REPORT_TIME_ZONE = configuredZone();

/** The license account's time zone (see the file's comment). */
export const accountTimeZone = (_accountId?: number): string => REPORT_TIME_ZONE;

// Local-time rules of docs/ARCHITECTURE.md#console-http-client, in the zone this project pins (vite.config.ts runs the unit tests as
// `unit` in Hong Kong, UTC+8 all year, and as `unit-ny` in New York, UTC-5 / UTC-4 in summer). Every
// instant below is chosen so that its local wall-clock is 15:08:09 in the zone under test: showing
// UTC (07:08 / 20:08 / 19:08) or a 12-hour clock (03:08) fails in both projects.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { translate } from '../../i18n';
import { createDataProvider } from '../../src/providers/dataProvider';
import { utcOffsetMinutes } from '../../src/providers/authProvider';
import { convertDateTimes, createHttpClient } from '../../src/providers/http';
import { formatDate, formatDateTime } from '../../src/generic/format';
import { fromLocalInput, rangeBody, toLocalInput } from '../../src/kit/timeRange';
import { fakeHttp } from '../fixtures/fakeHttp';

interface Zone {
  /** Date.getTimezoneOffset() in March (winter) and July (summer). */
  offsets: { winter: number; summer: number };
  /** UTC instants whose local wall-clock is 2024-03-05 15:08:09 and 2024-07-05 15:08:09. */
  winter: string;
  summer: string;
}

const ZONES: Record<string, Zone> = {
  'Asia/Hong_Kong': { offsets: { winter: -480, summer: -480 }, winter: '2024-03-05T07:08:09.000Z', summer: '2024-07-05T07:08:09.000Z' },
  'America/New_York': { offsets: { winter: 300, summer: 240 }, winter: '2024-03-05T20:08:09.000Z', summer: '2024-07-05T19:08:09.000Z' },
};
const WINTER_LOCAL = '2024-03-05 15:08:09';
const SUMMER_LOCAL = '2024-07-05 15:08:09';

const zoneName = process.env.TZ ?? '';
const zone = ZONES[zoneName];

afterEach(() => {
  vi.useRealTimers();
});

describe(`local time in ${zoneName}`, () => {
  it('really runs in the pinned zone (not UTC, which would hide every conversion)', () => {
    expect(Object.keys(ZONES)).toContain(zoneName);
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zoneName);
    expect(new Date(zone.winter).getTimezoneOffset()).toBe(zone.offsets.winter);
    expect(new Date(zone.summer).getTimezoneOffset()).toBe(zone.offsets.summer);
  });

  it('the http client shows answer date-times as local YYYY-MM-DD HH:mm:ss (24-hour), summer time included', async () => {
    const fetch = (async () =>
      new Response(JSON.stringify({ resCode: '00000', resData: { createTime: zone.winter, list: [{ at: zone.summer }], offset: zone.winter.replace('.000Z', '+00:00') } }), {
        status: 200,
      })) as typeof globalThis.fetch;
    const http = createHttpClient({
      fetch,
      session: { getToken: () => null, getLang: () => 'en', clear: () => undefined },
      notify: () => undefined,
      onForcedLogout: () => undefined,
      translate: (key, values) => translate('en', key, values),
    });
    await expect(http.get('/x')).resolves.toEqual({ createTime: WINTER_LOCAL, list: [{ at: SUMMER_LOCAL }], offset: WINTER_LOCAL });
    expect(convertDateTimes(zone.summer.replace('.000Z', 'Z'))).toBe(SUMMER_LOCAL);
  });

  it('the generic views format instants, dates and epoch numbers in local time', () => {
    expect(formatDateTime(zone.winter)).toBe(WINTER_LOCAL);
    expect(formatDateTime(new Date(zone.summer))).toBe(SUMMER_LOCAL);
    expect(formatDateTime(new Date(zone.summer).getTime())).toBe(SUMMER_LOCAL);
    expect(formatDateTime(WINTER_LOCAL)).toBe(WINTER_LOCAL); // already shown: kept as it is
    expect(formatDate(zone.summer)).toBe('2024-07-05');
  });

  it('the history tabs read and write datetime-local inputs as local wall-clock and send UTC instants', () => {
    expect(toLocalInput(new Date(zone.summer))).toBe('2024-07-05T15:08');
    const typed = fromLocalInput('2024-03-05T15:08');
    expect(typed?.toISOString()).toBe(zone.winter.replace(':09.000Z', ':00.000Z'));
    expect(rangeBody({ from: typed!, to: new Date(zone.summer) })).toEqual({ from: zone.winter.replace(':09.000Z', ':00.000Z'), to: zone.summer });
  });

  it('exports and sign-in send the browser offset of the moment (summer time in New York)', async () => {
    for (const season of ['winter', 'summer'] as const) {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(zone[season]));
      const { http, download, calls } = fakeHttp();
      await createDataProvider(http, download).export('systemSettings/user', { format: 'csv', filter: {}, sort: { field: 'name', order: 'ASC' } });
      expect(calls[0].body).toMatchObject({ utcOffsetMinutes: -zone.offsets[season] });
      expect(utcOffsetMinutes(new Date(zone[season]))).toBe(-zone.offsets[season]);
      vi.useRealTimers();
    }
  });
});

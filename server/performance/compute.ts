// The performance screen's answers from a source's figures (sources.ts): MCBE over time with the
// sub-fleets' figures, and the main errors ranking. docs/performance.md defines every number.
import { findAlarm } from '../../resources/fleetCatalogue';
import { translate, type Locale } from '../../i18n';
import type { Db } from '../db/client';
import { mcbeOf, type ErrorRankRow, type ErrorSort, type ErrorsAnswer, type McbeAnswer, type McbeFigures } from '../../resources/performance';
import { bucketsOf, dayLabel, type PerformanceRange } from './range';
import { subtreeOf, type PerformanceScope } from './scope';
import type { PerformanceSource } from './sources';

export type { ErrorSort };

const figures = (items: number, errors: number): McbeFigures => ({ items, errors, mcbe: mcbeOf(items, errors) });

const scopeLabels = (scope: PerformanceScope) => ({
  fleet: scope.fleet ? { id: scope.fleet.id, name: scope.fleet.name } : null,
  machine: scope.machine ? { id: scope.machine.id, termNo: scope.machine.termNo } : null,
});

export const computeMcbe = async (db: Db, source: PerformanceSource, scope: PerformanceScope, range: PerformanceRange): Promise<McbeAnswer> => {
  const rows = await source.usage(db, scope, range);
  const byDay = new Map<number, { items: number; errors: number }>();
  const byFleet = new Map<number, { items: number; errors: number }>();
  for (const row of rows) {
    const day = byDay.get(row.day) ?? { items: 0, errors: 0 };
    byDay.set(row.day, { items: day.items + row.items, errors: day.errors + row.errors });
    const fleetSum = byFleet.get(row.fleetId) ?? { items: 0, errors: 0 };
    byFleet.set(row.fleetId, { items: fleetSum.items + row.items, errors: fleetSum.errors + row.errors });
  }
  const series = bucketsOf(range).map((bucket) => {
    let items = 0;
    let errors = 0;
    for (let day = bucket.firstDay; day <= bucket.lastDay; day++) {
      items += byDay.get(day)?.items ?? 0;
      errors += byDay.get(day)?.errors ?? 0;
    }
    return { start: dayLabel(bucket.firstDay), end: dayLabel(bucket.lastDay), ...figures(items, errors) };
  });
  const total = figures(
    series.reduce((sum, point) => sum + point.items, 0),
    series.reduce((sum, point) => sum + point.errors, 0),
  );

  const sumOf = (ids: number[]) => {
    let items = 0;
    let errors = 0;
    for (const id of ids) {
      items += byFleet.get(id)?.items ?? 0;
      errors += byFleet.get(id)?.errors ?? 0;
    }
    return figures(items, errors);
  };
  const parent = scope.fleet?.id ?? null;
  const fleets = scope.machine
    ? []
    : [
        ...(parent !== null ? [{ id: parent, name: scope.fleet!.name, own: true, ...sumOf([parent]) }] : []),
        ...scope.fleets.filter((row) => row.parentId === parent).map((row) => ({ id: row.id, name: row.name, own: false, ...sumOf(subtreeOf(scope.fleets, row.id)) })),
      ].filter((row) => !row.own || row.items > 0 || row.errors > 0);
  return {
    from: dayLabel(range.fromDay),
    to: dayLabel(range.toDay),
    utcOffsetMinutes: range.offsetMinutes,
    granularity: range.granularity,
    ...scopeLabels(scope),
    total,
    series,
    fleets,
  };
};

export const computeErrors = async (
  db: Db,
  source: PerformanceSource,
  scope: PerformanceScope,
  range: PerformanceRange,
  sort: ErrorSort,
  locale: Locale,
): Promise<ErrorsAnswer> => {
  const codes = await source.errors(db, scope, range);
  const list = codes.map((row): ErrorRankRow => {
    const alarm = findAlarm(row.code);
    const openSeconds = Math.round(row.openMs / 1000);
    return {
      code: row.code,
      text: translate(locale, `fleet.alarms.${row.code}`),
      category: alarm?.category ?? '',
      severity: alarm?.severity ?? 'error',
      blocking: alarm?.blocking ?? false,
      count: row.raised,
      cleared: row.cleared,
      openSeconds,
      downtimeSeconds: alarm?.blocking ? openSeconds : 0,
    };
  });
  const key = (row: ErrorRankRow) => (sort === 'count' ? [row.count, row.downtimeSeconds] : [row.downtimeSeconds, row.count]);
  list.sort((a, b) => key(b)[0] - key(a)[0] || key(b)[1] - key(a)[1] || a.code.localeCompare(b.code, 'en', { numeric: true }));
  return {
    from: dayLabel(range.fromDay),
    to: dayLabel(range.toDay),
    utcOffsetMinutes: range.offsetMinutes,
    sort,
    ...scopeLabels(scope),
    total: { count: list.reduce((sum, row) => sum + row.count, 0), downtimeSeconds: list.reduce((sum, row) => sum + row.downtimeSeconds, 0) },
    list,
  };
};

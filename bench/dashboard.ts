// The home dashboard in the benchmark (bench/cases.ts): GET /dashboard for the whole account and for a
// saved filter (a region). Before measuring, the dashboard's numbers (its roll-ups and whole-account
// sets, server/dashboard) are checked against a raw scan computing the same numbers from the stored
// rows (sessions, cleanings, bins, alarms machine by machine): the benchmark refuses to run if one differs.
import { asc, eq, sql } from 'drizzle-orm';
import { RVM_STATUSES } from '../resources/fleetCatalogue';
import { machine } from '../resources/machine';
import type { Caller } from '../server/auth/principal';
import { buildModel } from '../server/crud/model';
import { computeDashboard, type Card } from '../server/dashboard/compute';
import { FACTS, instant, MACHINE_FACTS, sinceCondition } from '../server/dashboard/definitions';
import { periodsOf, type Periods } from '../server/dashboard/periods';
import { usageOf } from '../server/dashboard/rollup';
import { usageFromSessions } from '../server/dashboard/usage';
import { rowsOf, type Db } from '../server/db/client';
import { TABLES } from '../server/db/registry';
import { savedFilter, sysUser } from '../server/db/schema';
import { fleet, rvm } from '../server/db/schema/fleet';
import { machineHooks } from '../server/resources/machine';
import type { BenchCase } from './cases';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The demo fleet lives in Hong Kong. */
const OFFSET = 480;

/** Every card and chart count of the whole account, from the stored rows only (no roll-up). */
const rawScan = async (db: Db, account: number, periods: Periods) => {
  const now = periods.now;
  const at = instant(now);
  const machineCounts = rowsOf<Record<string, string | number>>(
    await db.execute(sql`select count(*) as machines,
      count(*) filter (where ${sinceCondition('downSince', new Date(now.getTime() - HOUR))}) as "downOverHour",
      count(*) filter (where ${sinceCondition('offlineSince', new Date(now.getTime() - 7 * DAY))}) as "offlineOverWeek",
      count(*) filter (where ${sinceCondition('notUsedSince', new Date(now.getTime() - DAY))}) as "notUsed",
      count(*) filter (where ${rvm.currentSts} = 'Offline') as offline,
      ${sql.join(
        MACHINE_FACTS.map((fact) => sql`count(*) filter (where ${FACTS[fact].perMachine(at)}) as ${sql.identifier(fact)}`),
        sql`, `,
      )},
      ${sql.join(
        RVM_STATUSES.map((status) => sql`count(*) filter (where ${rvm.currentSts} = ${status}) as ${sql.identifier(`status${status}`)}`),
        sql`, `,
      )}
      from ${rvm} where ${rvm.licenseAccountId} = ${account}`),
  )[0];
  const usage = await usageFromSessions(db, account, periods);
  const [total] = rowsOf<{ accepted: string | number }>(
    await db.execute(sql`select coalesce(sum(accepted_count), 0) as accepted from consumer_session where license_account_id = ${account}`),
  );
  return { machineCounts, usage: { ...usage, allTimeAccepted: Number(total.accepted) } };
};

/** The dashboard's answer through its own code (as GET /dashboard computes it) and the raw scan's numbers agree. */
const checkDashboard = async (db: Db, account: number) => {
  const model = buildModel(machine, TABLES, machineHooks);
  const caller = { principal: { licenseAccountId: account } } as unknown as Caller;
  const periods = periodsOf(new Date(), OFFSET);
  const started = performance.now();
  const answer = await computeDashboard({
    db,
    model,
    caller,
    account,
    base: {},
    periods,
    currency: 'HKD',
    usage: (tx, machines) => usageOf(tx, account, periods, machines),
  });
  const dashboardMs = performance.now() - started;
  const rawStarted = performance.now();
  const raw = await rawScan(db, account, periods);
  const rawMs = performance.now() - rawStarted;
  // The raw figures through the same card arithmetic: only their source differs.
  const fromRaw = await computeDashboard({
    db,
    model,
    caller,
    account,
    base: {},
    periods,
    currency: 'HKD',
    usage: async () => raw.usage,
  });
  const values = (cards: Card[]) => Object.fromEntries(cards.map((card) => [card.key, [card.value, card.average ?? null, card.report ?? null]]));
  const problems: string[] = [];
  const expectSame = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: dashboard ${JSON.stringify(got)}, raw scan ${JSON.stringify(want)}`);
  };
  const cards = values(answer.cards);
  for (const key of ['machines', 'downOverHour', 'offlineOverWeek', 'notUsed', 'offline', ...MACHINE_FACTS]) {
    expectSame(key, cards[key][0], Number(raw.machineCounts[key]));
  }
  for (const segment of answer.charts.statusOverview) expectSame(`status ${segment.key}`, segment.value, Number(raw.machineCounts[`status${segment.key}`]));
  const usageKeys = ['consumerSessions', 'refundValue', 'totalVolume', 'volumeThisMonth', 'volumeLastMonth', 'todayReport', 'monthlyReport', 'rejectRate'];
  const rawCards = values(fromRaw.cards);
  for (const key of usageKeys) expectSame(key, cards[key], rawCards[key]);
  expectSame('volume per day', answer.charts.volumePerDay, fromRaw.charts.volumePerDay);
  expectSame('reject rate per day', answer.charts.rejectRate, fromRaw.charts.rejectRate);
  if (problems.length) throw new Error(`The dashboard disagrees with the raw scan:\n${problems.join('\n')}`);
  console.log(
    `[bench] dashboard checked against a raw scan: ${answer.cards.length} cards and 4 charts agree (dashboard ${dashboardMs.toFixed(0)} ms, raw scan ${rawMs.toFixed(0)} ms)`,
  );
};

/**
 * A saved filter's consumer figures (the region's: from the fleet roll-up) equal those of its machines'
 * stored sessions (raw scan), through the same card arithmetic.
 */
const checkSavedFilterUsage = async (db: Db, account: number, base: Record<string, unknown>) => {
  const model = buildModel(machine, TABLES, machineHooks);
  const caller = { principal: { licenseAccountId: account } } as unknown as Caller;
  const periods = periodsOf(new Date(), OFFSET);
  const started = performance.now();
  const answer = await computeDashboard({
    db,
    model,
    caller,
    account,
    base,
    periods,
    currency: 'HKD',
    usage: (tx, machines) => usageOf(tx, account, periods, machines, base),
  });
  const dashboardMs = performance.now() - started;
  const rawStarted = performance.now();
  const fromRaw = await computeDashboard({
    db,
    model,
    caller,
    account,
    base,
    periods,
    currency: 'HKD',
    usage: async (_tx, machines) => {
      const usage = await usageFromSessions(db, account, periods, machines);
      const [total] = rowsOf<{ accepted: string | number }>(
        await db.execute(sql`select coalesce(sum(cs.accepted_count), 0) as accepted from consumer_session cs
        where cs.license_account_id = ${account} ${machines ? sql`and cs.rvm_id in (select rvm.id from rvm where ${machines})` : sql``}`),
      );
      return { ...usage, allTimeAccepted: Number(total.accepted) };
    },
  });
  const rawMs = performance.now() - rawStarted;
  const pick = (answer_: typeof answer) => JSON.stringify([answer_.cards.filter((card) => card.filter === undefined), answer_.charts.volumePerDay, answer_.charts.rejectRate]);
  if (pick(answer) !== pick(fromRaw)) throw new Error(`The saved filter's consumer figures disagree with the raw scan:\n${pick(answer)}\n${pick(fromRaw)}`);
  console.log(
    `[bench] dashboard with a saved filter (${JSON.stringify(base)}) checked against a raw scan of its machines' sessions: consumer cards and charts agree (dashboard ${dashboardMs.toFixed(0)} ms, raw scan ${rawMs.toFixed(0)} ms)`,
  );
};

export const dashboardCases = async (db: Db): Promise<BenchCase[]> => {
  const [first] = await db.select({ account: rvm.licenseAccountId }).from(rvm).orderBy(asc(rvm.id)).limit(1);
  if (!first) return [];
  await checkDashboard(db, first.account);
  // A public saved filter of the machine list holding one region (a third of the fleet or so).
  const [region] = await db
    .select({ id: fleet.id })
    .from(fleet)
    .where(sql`${fleet.parentId} is null and ${fleet.licenseAccountId} = ${first.account}`)
    .orderBy(asc(fleet.name))
    .limit(1);
  const [admin] = await db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'admin')).limit(1);
  const name = 'Benchmark: first region';
  let [saved] = await db.select({ id: savedFilter.id }).from(savedFilter).where(eq(savedFilter.name, name)).limit(1);
  saved ??= (
    await db
      .insert(savedFilter)
      .values({ resource: 'machine', name, filter: { fleetId: [region.id] }, visibility: 'public', ownerId: admin?.id ?? null, licenseAccountId: first.account })
      .returning({ id: savedFilter.id })
  )[0];
  await checkSavedFilterUsage(db, first.account, { fleetId: [region.id] });
  return [
    { name: 'Home dashboard, whole account', call: 'GET /dashboard', request: () => ({ method: 'GET', url: `/dashboard?utcOffsetMinutes=${OFFSET}` }) },
    {
      name: 'Home dashboard, saved filter (a region)',
      call: 'GET /dashboard',
      request: () => ({ method: 'GET', url: `/dashboard?utcOffsetMinutes=${OFFSET}&savedFilterId=${saved.id}` }),
    },
  ];
};

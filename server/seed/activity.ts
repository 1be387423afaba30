// One machine's life over the window, in time order: consumers feed containers (hourly and weekly
// curves, per-model reject profiles), bins fill, almost-full and full alarms call a technician who
// empties them (or aborts/fails and comes back), faults end with a repair visit, routine cleaning
// happens every few days. Rows go straight into the bulk tables.
import { KNOWN_ALARMS, findAlarm, type ItemType, type PayoutMethod } from '../../resources/fleetCatalogue';
import type { MachinePlan } from './machines';
import { Random, WeightedTable } from './random';
import type { SeedTables } from './tables';
import { StatusCursor, type AlarmEvent, type Timeline } from './timeline';
import { BIN_CAPACITY, HOURLY_USAGE, ITEM_MIX, ITEM_REFUND, LOCAL_OFFSET_MS, PAYOUT_MIX, PRODUCTS, TECHNICIANS, WEEKDAY_USAGE } from './vocabulary';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const HOURLY_TOTAL = HOURLY_USAGE.reduce((sum, weight) => sum + weight, 0);
const ITEMS = new WeightedTable(ITEM_MIX);
const PAYOUTS = new WeightedTable(PAYOUT_MIX);
const VOUCHER_PREFIX: Partial<Record<PayoutMethod, string>> = { receipt: 'R', supermarket: 'S', ticket: 'T' };
/** Regular consumers per district; a few of them come very often. */
const USERS_PER_DISTRICT = 4000;

export interface ActivityContext {
  seed: string | number;
  licenseAccountId: number;
  start: number;
  end: number;
  tables: SeedTables;
  donationInstituteIds: readonly number[];
  /** Hands out consumer session ids (preallocated, so items can reference them). */
  nextSessionId(): number;
}

export interface BinState {
  itemType: ItemType;
  count: number;
  fill: number;
  lastEmptied: number | null;
  almostAlarm: AlarmEvent | null;
  fullAlarm: AlarmEvent | null;
}

export interface MachineOutcome {
  bins: BinState[];
  lastSessionTime: number | null;
  sessions: number;
  items: number;
}

const userId = (method: PayoutMethod, district: number, user: number): string | null => {
  const n = district * USERS_PER_DISTRICT + user;
  switch (method) {
    case 'loyaltyAccount':
      return `L${String(100_000_000 + n * 7919).slice(-9)}`;
    case 'octopus':
      return String(10_000_000 + ((n * 104_729) % 89_999_999));
    case 'alipayHK':
      return `2088${String(n * 15_485_863)
        .padStart(12, '0')
        .slice(-12)}`;
    case 'thirdPartyPayment':
      return `TP${n.toString(36).toUpperCase().padStart(8, '0')}`;
    default:
      return null;
  }
};

const base36 = (value: number, width: number) => value.toString(36).toUpperCase().padStart(width, '0');

const localWorkingTime = (random: Random, time: number) => {
  // Technicians work 08:00-21:00 local: a visit due at night moves to the next morning.
  const local = time + LOCAL_OFFSET_MS;
  const minute = Math.floor((local % DAY) / MINUTE);
  if (minute >= 8 * 60 && minute < 21 * 60) return time;
  const nextMorning = Math.floor(local / DAY) * DAY + (minute >= 21 * 60 ? DAY : 0) + 8 * HOUR - LOCAL_OFFSET_MS;
  return nextMorning + random.int(0, 150) * MINUTE;
};

export const simulateMachine = (plan: MachinePlan, timeline: Timeline, context: ActivityContext): MachineOutcome => {
  const { tables, licenseAccountId: account, start, end } = context;
  const random = new Random(context.seed, 'activity', plan.index);
  const status = new StatusCursor(timeline.segments);
  const bins: BinState[] = plan.model.bins.map((itemType) => ({
    itemType,
    count: 0,
    fill: 0,
    lastEmptied: null,
    almostAlarm: null,
    fullAlarm: null,
  }));
  // Bins start the window part-filled, as they would be in a running fleet.
  for (const bin of bins) {
    bin.count = Math.floor(random.uniform(0, 0.6) * BIN_CAPACITY[bin.itemType]);
    bin.fill = Math.floor((bin.count * 100) / BIN_CAPACITY[bin.itemType]);
    bin.lastEmptied = start - random.int(1, 72) * HOUR;
  }
  const binOf = (type: ItemType) => bins.findIndex((bin) => bin.itemType === (type === 'flat' ? 'plasticBottle' : type));
  const events: AlarmEvent[] = [];
  const closeAlarm = (alarm: AlarmEvent | null, time: number) => {
    if (alarm) alarm.cleared = time;
  };

  // Service visits, kept sorted by time; the bin visit is one pending call at most.
  const visits: Array<{ time: number; kind: 'repair' | 'bins' | 'routine'; note: string | null }> = [];
  const addVisit = (time: number, kind: 'repair' | 'bins' | 'routine', note: string | null = null) => {
    visits.push({ time, kind, note });
    visits.sort((a, b) => a.time - b.time);
  };
  for (const down of timeline.downs) if (down.end !== null) addVisit(down.end, 'repair', `Repair: ${down.alarm.code}`);
  for (let time = start + random.uniform(0, 5) * DAY; time < end; time += random.uniform(4, 9) * DAY) {
    addVisit(localWorkingTime(random, time), 'routine');
  }
  let binVisitPending = false;
  const callTechnician = (time: number, delayMean: number) => {
    if (binVisitPending) return;
    binVisitPending = true;
    addVisit(localWorkingTime(random, time + Math.max(45 * MINUTE, random.exponential(delayMean))), 'bins');
  };

  const runVisit = (visit: (typeof visits)[number]) => {
    const duration = (visit.kind === 'repair' ? random.int(25, 90) : random.int(10, 40)) * MINUTE;
    const visitStart = visit.kind === 'repair' ? visit.time - duration : visit.time;
    const visitEnd = visitStart + duration;
    if (visit.kind === 'bins') binVisitPending = false;
    const roll = random.next();
    const outcome = visit.kind === 'repair' || roll < 0.88 ? 'completed' : roll < 0.95 ? 'aborted' : 'failed';
    let emptied = 0;
    if (outcome === 'completed') {
      for (const bin of bins) {
        if (bin.fill < (visit.kind === 'bins' ? 10 : 30)) continue;
        bin.count = 0;
        bin.fill = 0;
        bin.lastEmptied = visitEnd;
        closeAlarm(bin.almostAlarm, visitEnd);
        closeAlarm(bin.fullAlarm, visitEnd);
        bin.almostAlarm = bin.fullAlarm = null;
        emptied++;
      }
    } else if (bins.some((bin) => bin.fill >= plan.binAlmostFull)) {
      callTechnician(visitEnd, 4 * HOUR);
    }
    if (visitEnd > end) return;
    tables.service.push(account, plan.id, random.pick(TECHNICIANS), visitStart, visitEnd, outcome, emptied, visit.note);
  };

  const binAlarm = (bin: BinState, index: number, time: number) => {
    if (bin.fill >= plan.binAlreadyFull && !bin.fullAlarm) {
      bin.fullAlarm = { alarm: findAlarm(KNOWN_ALARMS.binFull[Math.min(index, 2)])!, raised: time, cleared: null, detail: `${bin.fill}%` };
      events.push(bin.fullAlarm);
      callTechnician(time, 3 * HOUR);
    } else if (bin.fill >= plan.binAlmostFull && !bin.almostAlarm) {
      bin.almostAlarm = { alarm: findAlarm(KNOWN_ALARMS.binAlmostFull)!, raised: time, cleared: null, detail: `Bin ${index + 1}: ${bin.fill}%` };
      events.push(bin.almostAlarm);
      callTechnician(time, 8 * HOUR);
    }
  };

  const rejectReasons = new WeightedTable(plan.model.rejectProfile);
  const accepts = new Set<ItemType>(plan.model.accepts);
  const dailyRows = new Map<number, { sessions: number; items: number; accepted: number; rejected: number; cents: number }>();
  let lastSessionTime: number | null = null;
  let sessionCount = 0;
  let itemTotal = 0;

  const runSession = (time: number) => {
    const id = context.nextSessionId();
    const itemCount = Math.min(40, 1 + Math.floor(random.exponential(5)));
    let accepted = 0;
    let cents = 0;
    for (let seq = 1; seq <= itemCount; seq++) {
      const type = ITEMS.pick(random);
      const product = random.pick(PRODUCTS[type]);
      const binIndex = binOf(type);
      const bin = bins[binIndex];
      let reason: number | null = null;
      if (!accepts.has(type) || !bin) reason = type === 'others' ? random.pick([13, 3, 2]) : random.chance(0.7) ? 6 : 13;
      else if (bin.fill >= plan.binAlreadyFull) reason = 18;
      else if (random.chance(type === 'flat' ? 0.6 : plan.model.rejectRate)) reason = type === 'flat' ? random.pick([15, 1, 4]) : rejectReasons.pick(random);
      const refund = reason === null ? Math.round(ITEM_REFUND[type] * 100) : 0;
      if (reason === null) {
        accepted++;
        cents += refund;
        bin.count++;
        bin.fill = Math.min(100, Math.floor((bin.count * 100) / BIN_CAPACITY[bin.itemType]));
        binAlarm(bin, binIndex, time + seq * 4000);
      }
      tables.item.push(id, seq, account, type, reason === 1 ? null : product.barcode, product.category, refund / 100, reason, `${type}/${product.variant}`);
    }
    let method: PayoutMethod = accepted === 0 && random.chance(0.7) ? 'userCancelledPayment' : PAYOUTS.pick(random);
    if (method === 'donation' && context.donationInstituteIds.length === 0) method = 'receipt';
    const regular = Math.floor(Math.pow(random.next(), 2.5) * USERS_PER_DISTRICT);
    const user = userId(method, plan.district.index, regular);
    const prefix = VOUCHER_PREFIX[method];
    // Unique per machine and session, and independent of the ids already in the database.
    const voucher = prefix ? `${prefix}${base36(plan.index, 4)}${base36(sessionCount, 4)}${random.int(10, 99)}` : null;
    const donation = method === 'donation' ? random.pick(context.donationInstituteIds) : null;
    const sessionEnd = time + (15 + itemCount * random.int(3, 6)) * 1000;
    // A cancelled payment pays nothing, whatever the accepted containers were worth.
    const paid = method === 'userCancelledPayment' ? 0 : cents;
    tables.session.push(id, account, plan.id, time, sessionEnd, method, paid / 100, itemCount, accepted, itemCount - accepted, user, voucher, donation);
    const day = Math.floor(time / DAY);
    const daily = dailyRows.get(day) ?? { sessions: 0, items: 0, accepted: 0, rejected: 0, cents: 0 };
    daily.sessions++;
    daily.items += itemCount;
    daily.accepted += accepted;
    daily.rejected += itemCount - accepted;
    daily.cents += paid;
    dailyRows.set(day, daily);
    lastSessionTime = time;
    sessionCount++;
    itemTotal += itemCount;
  };

  const dailyRate = plan.popularity;
  for (let hour = Math.floor(start / HOUR) * HOUR; hour < end; hour += HOUR) {
    const local = new Date(hour + LOCAL_OFFSET_MS);
    const mean = (dailyRate * HOURLY_USAGE[local.getUTCHours()] * WEEKDAY_USAGE[local.getUTCDay()]) / HOURLY_TOTAL;
    const count = random.poisson(mean);
    const times = Array.from({ length: count }, () => hour + Math.floor(random.next() * HOUR)).sort((a, b) => a - b);
    for (const time of times) {
      if (time < start || time >= end) continue;
      while (visits.length && visits[0].time <= time) runVisit(visits.shift()!);
      if (status.at(time) === 'Up') runSession(time);
    }
  }
  while (visits.length && visits[0].time <= end) runVisit(visits.shift()!);

  for (const event of [...timeline.minorAlarms, ...events]) {
    tables.event.push(account, plan.id, event.alarm.code, event.alarm.category, event.alarm.severity, event.raised, event.cleared, event.detail);
  }
  for (const down of [...timeline.downs, ...timeline.offlines]) {
    tables.event.push(account, plan.id, down.alarm.code, down.alarm.category, down.alarm.severity, down.start, down.end, null);
  }
  for (const [day, row] of dailyRows) {
    tables.daily.push(plan.id, new Date(day * DAY).toISOString().slice(0, 10), account, row.sessions, row.items, row.accepted, row.rejected, row.cents / 100);
  }
  return { bins, lastSessionTime, sessions: sessionCount, items: itemTotal };
};

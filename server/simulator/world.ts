// What a virtual machine does, as plain functions over a seeded PRNG: the demo seed's world (models,
// usage curves, item mix, reject profiles, products, alarm tables) turned into protocol payloads.
// No MQTT and no timers here, so the behaviour is testable and deterministic.
import { BIN_HEIGHT, KNOWN_ALARMS, type AlarmDefinition, type ItemType, type PayoutMethod } from '../../resources/fleetCatalogue';
import { Random, WeightedTable } from '../seed/random';
import { FAULTS, MINOR } from '../seed/timeline';
import { extraClassificationReject, FACTORY_RECOGNISER, throughRecogniser, type Recogniser } from './recogniser';
import { VOUCHER_PAYOUT_METHODS } from '../../resources/configurationGroups';
import { FACTORY_EFFECTS, type SessionEffects } from './h30Effects';
import { BIN_CAPACITY, HOURLY_USAGE, ITEM_MIX, ITEM_REFUND, LOCAL_OFFSET_MS, MODELS, PAYOUT_MIX, PRODUCTS, WEEKDAY_USAGE, type MachineModel } from '../seed/vocabulary';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

const HOURLY_TOTAL = HOURLY_USAGE.reduce((sum, weight) => sum + weight, 0);
const ITEMS = new WeightedTable(ITEM_MIX);
const VOUCHER_PREFIX: Partial<Record<PayoutMethod, string>> = { receipt: 'R', supermarket: 'S', ticket: 'T' };

/** A machine as the console knows it (machine record, or a test's invention). */
export interface MachineProfile {
  serialNumber: string;
  termType: string;
  binCount: number;
  binEmptyHeight?: number | null;
  binFullHeight?: number | null;
  binAlmostFull?: number | null;
  binAlreadyFull?: number | null;
  onTime?: string | null;
  offTime?: string | null;
  softwareVersion?: string | null;
  /** Current bin levels when known (in-process); otherwise they start part-filled at random. */
  bins?: ReadonlyArray<{ binNo: number; itemType?: string | null; currentHeight: number; itemCount?: number | null }>;
  /** Median consumer sessions per day; default drawn like the demo seed's machines. */
  sessionsPerDay?: number;
  /** Donation institutes a consumer may pick (ids in the console); without them nobody donates. */
  donationInstituteIds?: readonly number[];
  /** Their names by id (a payout package names the institutes donation offers). */
  donationInstituteNames?: Readonly<Record<number, string>>;
  /** Its fleet (a machine group of a group package may hold it by fleet). */
  fleetId?: number | null;
}

export interface BinLevel {
  binNo: number;
  itemType: ItemType;
  /** Items in the bin; the sensor height follows from it and the machine's bin heights. */
  count: number;
  /** The share of its nominal capacity it holds (an H30 without compaction: 0.5, h30Effects.ts); absent: 1. */
  capacityFactor?: number;
}

export interface Thresholds {
  binEmptyHeight: number;
  binFullHeight: number;
  binAlmostFull: number;
  binAlreadyFull: number;
}

/** The seed's model of that name, or the most common one for a model the seed does not know. */
export const modelFor = (termType: string): MachineModel => MODELS.find((model) => model.name === termType) ?? MODELS[0];

export const thresholdsOf = (profile: MachineProfile): Thresholds => ({
  binEmptyHeight: profile.binEmptyHeight ?? 120,
  binFullHeight: profile.binFullHeight ?? 25,
  binAlmostFull: profile.binAlmostFull ?? 80,
  binAlreadyFull: profile.binAlreadyFull ?? 98,
});

/** Fill percentage of a bin (0-100). */
export const fillOf = (bin: BinLevel) => Math.min(100, Math.floor((bin.count * 100) / (BIN_CAPACITY[bin.itemType] * (bin.capacityFactor ?? 1))));

/** Sensor distance to the contents: binEmptyHeight when empty down to binFullHeight when full. */
export const heightOf = (bin: BinLevel, limits: Thresholds) => {
  const height = Math.round(limits.binEmptyHeight - ((limits.binEmptyHeight - limits.binFullHeight) * fillOf(bin)) / 100);
  return Math.min(BIN_HEIGHT.max, Math.max(BIN_HEIGHT.min, height));
};

/** The machine's bins: the model's materials (extra bins take bottles), levels from the record or part-filled. */
export const initialBins = (profile: MachineProfile, model: MachineModel, random: Random): BinLevel[] => {
  const limits = thresholdsOf(profile);
  return Array.from({ length: Math.max(1, profile.binCount) }, (_, index) => {
    const known = profile.bins?.find((bin) => bin.binNo === index + 1);
    const itemType = (known?.itemType as ItemType | undefined) ?? model.bins[index] ?? 'plasticBottle';
    const capacity = BIN_CAPACITY[itemType] ?? BIN_CAPACITY.plasticBottle;
    const drawn = Math.floor(random.uniform(0, 0.6) * capacity);
    if (!known) return { binNo: index + 1, itemType, count: drawn };
    const span = Math.max(1, limits.binEmptyHeight - limits.binFullHeight);
    const fill = Math.min(1, Math.max(0, (limits.binEmptyHeight - known.currentHeight) / span));
    return { binNo: index + 1, itemType, count: known.itemCount ?? Math.round(fill * capacity) };
  });
};

/** Median sessions per day of a machine, drawn as the demo seed draws its machines' popularity. */
export const drawSessionsPerDay = (random: Random) => Math.min(60, random.logNormal(4.2, 0.6));

const WEEKDAY_MEAN = WEEKDAY_USAGE.reduce((sum, weight) => sum + weight, 0) / WEEKDAY_USAGE.length;

/**
 * The curve's scale (`sessionsPerDay`) of a machine whose history shows `average` sessions a day over
 * whole weeks: the weekday factors average above 1, so the scale is a little below the average.
 */
export const sessionsPerDayForAverage = (average: number) => Math.max(0, average) / WEEKDAY_MEAN;

/** Expected consumer sessions per hour at `time` (real time, the fleet's local clock). */
export const sessionsPerHour = (sessionsPerDay: number, time: number) => {
  const local = new Date(time + LOCAL_OFFSET_MS);
  return (sessionsPerDay * HOURLY_USAGE[local.getUTCHours()] * WEEKDAY_USAGE[local.getUTCDay()]) / HOURLY_TOTAL;
};

const minuteOf = (hhmm: string | null | undefined) => {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
};

/** Outside its opening hours a machine sleeps; 00:00-23:59 (or no hours) means always open. */
export const isSleepTime = (onTime: string | null | undefined, offTime: string | null | undefined, time: number) => {
  const on = minuteOf(onTime);
  const off = minuteOf(offTime);
  if (on === null || off === null || (on === 0 && off >= 1439)) return false;
  const minute = Math.floor(((((time + LOCAL_OFFSET_MS) % DAY) + DAY) % DAY) / MINUTE);
  return minute < on || minute >= off;
};

export interface SessionItem {
  seq: number;
  itemType: ItemType;
  barcode?: string;
  category: string;
  refund: number;
  rejectReason?: number;
  picture: string;
}

/** What the machine's applied configuration packages say about a session (machineSettings.ts); absent: factory behaviour. */
export interface SessionSettings {
  accepts(barcode: string | undefined): boolean;
  refundOf(itemType: ItemType, barcode: string | undefined): number | undefined;
  binOf(itemType: ItemType): number | undefined;
  /** The most items one session takes (an H30 config's max. items per session); undefined or absent: no limit of its own. */
  maxItems?(): number | undefined;
  /** The payout methods its payout package enables (machineSettings.ts); null or absent: every method. */
  payoutOptions?(): PayoutOption[] | null;
  /** What its H30 settings change (h30Effects.ts); absent: nothing. */
  effects?(): SessionEffects;
}

/** A payout method a payout package enables, with its parameters (docs/machine-protocol.md#configuration-packages). */
export interface PayoutOption {
  method: PayoutMethod;
  /** A session's refund below the minimum or above the maximum cannot take it. */
  minAmount: number | null;
  maxAmount: number | null;
  validityDays: number | null;
  /** Donation: the institutes' names a consumer may pick from. */
  institutes: string[] | null;
}

/**
 * The payout methods a consumer may take for `total` (what the payout package enables and its amounts admit,
 * donation only with a known institute), weighted as the demo seed's mix; a consumer can always cancel.
 */
const payoutChoices = (options: readonly PayoutOption[], total: number, profile: MachineProfile, mix: typeof PAYOUT_MIX) => {
  const institutes = (option: PayoutOption) =>
    (profile.donationInstituteIds ?? []).filter((id) => option.institutes?.includes(profile.donationInstituteNames?.[id] ?? '') ?? false);
  const open = options.filter(
    (option) =>
      (option.minAmount === null || total >= option.minAmount) &&
      (option.maxAmount === null || total <= option.maxAmount) &&
      (option.method !== 'donation' || institutes(option).length > 0),
  );
  const donation = open.find((option) => option.method === 'donation');
  return {
    table: new WeightedTable(mix.filter(([method]) => method === 'userCancelledPayment' || open.some((option) => option.method === method))),
    donations: donation ? institutes(donation) : [],
  };
};

export interface SessionDraft {
  items: SessionItem[];
  payoutMethod: PayoutMethod;
  totalRefund: number;
  userId?: string;
  voucherCode?: string;
  /** Days the voucher can be redeemed (its payout package's validityDays for the method); absent: no validity known. */
  voucherValidDays?: number;
  donationInstituteId?: number;
  /** Seconds the consumer spent at the machine. */
  seconds: number;
  /** Accepted items per bin index (the bins fill by that much). */
  accepted: number[];
}

/**
 * One consumer at the machine, as the seed's activity generator has them: item mix, wrong material,
 * the model's quality rejects, full bins (reason 18), then a payout (mostly cancelled when nothing was taken).
 * `lowConfidence`: the share of items a degraded recogniser (a "bad" package) rejects as reason 4 on top.
 * `recogniser`: the trained AI model it runs, which scales its classification rejects (recogniser.ts).
 */
export const drawSession = (
  random: Random,
  model: MachineModel,
  bins: readonly BinLevel[],
  limits: Thresholds,
  profile: MachineProfile,
  number: number,
  lowConfidence = 0,
  settings?: SessionSettings,
  recogniser: Recogniser = FACTORY_RECOGNISER,
): SessionDraft => {
  const rejectReasons = new WeightedTable(model.rejectProfile);
  const effects = settings?.effects?.() ?? FACTORY_EFFECTS;
  // a badly exposed camera rejects on top of a degraded recogniser: either one is enough
  const unsure = 1 - (1 - lowConfidence) * (1 - effects.lowConfidence);
  const itemCount = Math.min(40, settings?.maxItems?.() ?? 40, 1 + Math.floor(random.exponential(5)));
  const accepted = bins.map(() => 0);
  const items: SessionItem[] = [];
  let thousandths = 0;
  for (let seq = 1; seq <= itemCount; seq++) {
    const type = ITEMS.pick(random);
    const product = random.pick(PRODUCTS[type]);
    const sortedTo = settings?.binOf(type);
    const binIndex =
      sortedTo === undefined ? bins.findIndex((bin) => bin.itemType === (type === 'flat' ? 'plasticBottle' : type)) : bins.findIndex((bin) => bin.binNo === sortedTo);
    const bin = bins[binIndex];
    let reason: number | null = null;
    if (!model.accepts.includes(type) || !bin) reason = type === 'others' ? random.pick([13, 3, 2]) : random.chance(0.7) ? 6 : 13;
    // a barcode its applied assortment does not list: not in the database (reason 2)
    else if (settings && !settings.accepts(product.barcode)) reason = 2;
    else if (fillOf({ ...bin, count: bin.count + accepted[binIndex] }) >= limits.binAlreadyFull) reason = 18;
    else if (unsure > 0 && random.chance(unsure)) reason = 4;
    // the classification rejects (3, 4, 5) follow the AI model it runs (recogniser.ts)
    else if (random.chance(type === 'flat' ? 0.6 : model.rejectRate))
      reason = throughRecogniser(random, recogniser, type === 'flat' ? random.pick([15, 1, 4]) : rejectReasons.pick(random));
    else reason = extraClassificationReject(random, recogniser, model);
    // in thousandths: a configured refund may have 3 decimals
    const refund = reason === null ? Math.round((settings?.refundOf(type, product.barcode) ?? ITEM_REFUND[type]) * 1000) : 0;
    if (reason === null) {
      accepted[binIndex]++;
      thousandths += refund;
    }
    items.push({
      seq,
      itemType: type,
      ...(reason === 1 ? {} : { barcode: product.barcode }),
      category: product.category,
      refund: refund / 1000,
      ...(reason === null ? {} : { rejectReason: reason }),
      picture: `${type}/${product.variant}`,
    });
  }
  const anyAccepted = accepted.some((count) => count > 0);
  // a payout package limits the choice to the methods it enables for this machine (and the amount they admit)
  const options = settings?.payoutOptions?.();
  // without a printer no voucher can be printed: those methods are not offered
  const mix = effects.noVouchers ? PAYOUT_MIX.filter(([method]) => !(VOUCHER_PAYOUT_METHODS as readonly string[]).includes(method)) : PAYOUT_MIX;
  const choices = options ? payoutChoices(options, thousandths / 1000, profile, mix) : null;
  let payoutMethod: PayoutMethod = !anyAccepted && random.chance(0.7) ? 'userCancelledPayment' : (choices?.table ?? new WeightedTable(mix)).pick(random);
  const donations = choices?.donations ?? profile.donationInstituteIds ?? [];
  if (payoutMethod === 'donation' && donations.length === 0) payoutMethod = effects.noVouchers ? 'userCancelledPayment' : 'receipt';
  const regular = Math.floor(Math.pow(random.next(), 2.5) * 4000);
  const userId =
    payoutMethod === 'loyaltyAccount'
      ? `L${String(100_000_000 + regular * 7919).slice(-9)}`
      : payoutMethod === 'octopus'
        ? String(10_000_000 + ((regular * 104_729) % 89_999_999))
        : payoutMethod === 'alipayHK'
          ? `2088${String(regular * 15_485_863)
              .padStart(12, '0')
              .slice(-12)}`
          : payoutMethod === 'thirdPartyPayment'
            ? `TP${regular.toString(36).toUpperCase().padStart(8, '0')}`
            : undefined;
  const prefix = VOUCHER_PREFIX[payoutMethod];
  const validityDays = prefix ? options?.find((option) => option.method === payoutMethod)?.validityDays : null;
  return {
    items,
    payoutMethod,
    // a cancelled payment pays nothing, whatever the accepted containers were worth
    totalRefund: payoutMethod === 'userCancelledPayment' ? 0 : thousandths / 1000,
    ...(userId ? { userId } : {}),
    ...(prefix ? { voucherCode: `${prefix}${profile.serialNumber.slice(-6)}${number.toString(36).toUpperCase().padStart(5, '0')}` } : {}),
    ...(validityDays ? { voucherValidDays: validityDays } : {}),
    ...(payoutMethod === 'donation' ? { donationInstituteId: random.pick(donations) } : {}),
    // the conveyor's speed sets the time per item; a consumer who walks away leaves the machine waiting its idle time-out
    seconds: 15 + Math.round(itemCount * random.int(3, 6) * effects.secondsPerItemFactor) + (payoutMethod === 'userCancelledPayment' ? effects.idleSeconds : 0),
    accepted,
  };
};

/** A fault that stops the machine (the seed's fault table: mechanics fail most). */
export const drawFault = (random: Random): AlarmDefinition => FAULTS.pick(random);

/** A minor alarm and how long it stays open (ms; 0 means a blip of a few seconds). */
export const drawMinorAlarm = (random: Random): { alarm: AlarmDefinition; duration: number } => {
  const [alarm, median] = MINOR.pick(random);
  return { alarm, duration: median === 0 ? random.int(3, 30) * 1000 : random.logNormal(median, 0.8) };
};

/** Which alarm a bin raises at its level, if any: almost full, then full (per bin, as the seed does). */
export const binAlarmCode = (bin: BinLevel, index: number, limits: Thresholds): string | null => {
  const fill = fillOf(bin);
  if (fill >= limits.binAlreadyFull) return KNOWN_ALARMS.binFull[Math.min(index, KNOWN_ALARMS.binFull.length - 1)];
  if (fill >= limits.binAlmostFull) return KNOWN_ALARMS.binAlmostFull;
  return null;
};

/** A small generated text file (logs or diagnosis), as a machine would upload it. */
export const generatedFile = (kind: 'log' | 'diagnosis', serialNumber: string, lines: readonly string[]) => {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const text = [`# ${kind === 'log' ? 'Machine log' : 'Remote diagnosis'} of ${serialNumber}, ${new Date().toISOString()}`, ...lines, ''].join('\n');
  return { name: `${serialNumber}-${kind}-${stamp}.txt`, contentType: 'text/plain', data: Buffer.from(text, 'utf8').toString('base64') };
};

/** The machine's recent message lines (each starts with its ISO time) between `from` and `to`. */
export const logExcerpt = (recent: readonly string[], from: unknown, to: unknown) => {
  const after = typeof from === 'string' ? new Date(from).toISOString() : '';
  const before = typeof to === 'string' ? new Date(to).toISOString() : '\uffff';
  const lines = recent.filter((line) => line.slice(0, 24) >= after && line.slice(0, 24) <= before);
  return lines.length ? lines : ['(no messages in that period)'];
};

// One virtual reverse vending machine speaking docs/machine-protocol.md over MQTT: it says hello,
// beats every 30 s, serves consumers along the demo seed's usage curves, fills its bins, raises and
// clears alarms (blocking ones take it Down), loses its connection now and then, gets serviced,
// answers commands (ack at once, result after 1-5 s) and takes deployments (deploy.ts). Time runs
// `speed` times faster; timestamps stay real. Everything random comes from streams seeded by (seed,
// serial number, purpose), so the same seed gives the same machine and the same consumers whatever
// the timing.
import { findAlarm, KNOWN_ALARMS, type AlarmDefinition } from '../../resources/fleetCatalogue';
import { Random } from '../seed/random';
import { TECHNICIANS, type MachineModel } from '../seed/vocabulary';
import { SimClock } from './clock';
import { CommandRunner, type CommandTarget } from './commands';
import { BAD_PACKAGE_EFFECT, DeployRunner, InstalledPackages, NO_DEPLOY_FAULTS, type DeployFaults, type DeployTarget } from './deploy';
import { MachineLink, type MachineCredentials, type Message } from './link';
import { consumerOfBan, MachineRoster } from './roster';
import { MachineSettings } from './machineSettings';
import { PromotionScreen } from './promotionScreen';
import { FACTORY_RECOGNISER, recogniserOf, type Recogniser } from './recogniser';
import type { VendorConnectClient } from './vendorConnect';
import type { PictureUploader } from './pictureUpload';
import {
  DAY,
  HOUR,
  MINUTE,
  binAlarmCode,
  drawFault,
  drawMinorAlarm,
  drawSession,
  drawSessionsPerDay,
  fillOf,
  generatedFile,
  heightOf,
  initialBins,
  isSleepTime,
  logExcerpt,
  modelFor,
  sessionsPerHour,
  thresholdsOf,
  type BinLevel,
  type MachineProfile,
  type Thresholds,
} from './world';

export type MachineStatus = 'Up' | 'Down' | 'Sleep';

export interface VirtualMachineOptions {
  profile: MachineProfile;
  credentials: MachineCredentials;
  seed: string | number;
  /** Simulated time runs this many times faster than real time (default 1). */
  speed?: number;
  /** Share of executed commands that fail (default 0.05). */
  failureRate?: number;
  /** Shares of deliveries that meet each deployment failure mode (default none). */
  deployFaults?: Partial<DeployFaults>;
  /** Package names that are "bad" here (as are versions ending in `-bad`). */
  badPackages?: readonly string[];
  /** Simulated seconds a machine closed by command stays away (default 120). */
  reopenAfterSeconds?: number;
  /** Consumers, faults, outages and visits on their own (default true); tests drive them by hand. */
  autopilot?: boolean;
  /** Real time at which simulated time starts (default: now; a fleet gives all its machines one). */
  epoch?: number;
  /** Makes message, session and service ids unique across simulator runs. */
  runTag?: string;
  /** The fleet's publish budget (default: no limit). */
  gate?: (kind: string) => Promise<boolean>;
  /** Vendor connect during sessions (vendorConnect.ts; default: none). */
  vendorConnect?: VendorConnectClient;
  /** Item pictures uploaded after sessions (pictureUpload.ts; default: none). */
  pictures?: PictureUploader;
  log?: (line: string) => void;
}

export interface MachineStats {
  connects: number;
  messagesSent: number;
  messagesDropped: number;
  commandsReceived: number;
  commandsAnswered: number;
  sessions: number;
  errors: number;
  deploysReceived: number;
  deploysApplied: number;
  downloadResumes: number;
}

const HEARTBEAT = 30_000;
const MIN_REAL_HEARTBEAT_MS = 1000;
const OUTAGES_PER_DAY = 0.05;
const MINOR_ALARMS_PER_DAY = 0.5;
const BIN_CODES = new Set<string>([...KNOWN_ALARMS.binFull, KNOWN_ALARMS.binAlmostFull]);

export class VirtualMachine implements CommandTarget, DeployTarget {
  readonly serialNumber: string;
  readonly model: MachineModel;
  readonly stats: MachineStats = {
    connects: 0,
    messagesSent: 0,
    messagesDropped: 0,
    commandsReceived: 0,
    commandsAnswered: 0,
    sessions: 0,
    errors: 0,
    deploysReceived: 0,
    deploysApplied: 0,
    downloadResumes: 0,
  };
  readonly bins: BinLevel[];
  private readonly link: MachineLink;
  private readonly speed: number;
  private readonly clock: SimClock;
  private readonly runTag: string;
  private readonly random: Record<'profile' | 'sessions' | 'schedule' | 'faults' | 'service' | 'commands' | 'deploy' | 'pictures', Random>;
  /** The scale of its usage curve: sessions on an average weekday (its history's, or drawn). */
  readonly sessionsPerDay: number;
  private readonly alarms = new Map<string, AlarmDefinition>();
  private readonly commands: CommandRunner;
  private readonly deploys: DeployRunner;
  readonly installed: InstalledPackages;
  /** Its personnel and ban list (roster.ts). */
  readonly roster: MachineRoster;
  /** Its refund table, assortment, sorting and main config (machineSettings.ts). */
  readonly settings: MachineSettings;
  /** The promotion package it shows (docs/promotions.md#what-machines-show). */
  readonly promotion: PromotionScreen;
  /** The item recogniser of the AI model it runs (recogniser.ts): the factory's until a trained model is applied. */
  recogniser: Recogniser = FACTORY_RECOGNISER;
  private readonly recent: string[] = [];
  private limits: Thresholds;
  private onTime: string | null;
  private offTime: string | null;
  private messageNo = 0;
  private sessionNo = 0;
  private serviceNo = 0;
  private lastSessionEnd = 0;
  private reported: MachineStatus | null = null;
  private closedByCommand = false;
  private maintenance = false;
  private binVisitPending = false;
  private running = false;

  constructor(private readonly options: VirtualMachineOptions) {
    const { profile } = options;
    this.serialNumber = options.credentials.serialNumber;
    this.speed = Math.max(0.001, options.speed ?? 1);
    this.runTag = options.runTag ?? Date.now().toString(36);
    const stream = (purpose: string) => new Random(options.seed, 'simulator', this.serialNumber, purpose);
    this.random = {
      profile: stream('profile'),
      sessions: stream('sessions'),
      schedule: stream('schedule'),
      faults: stream('faults'),
      service: stream('service'),
      commands: stream('commands'),
      deploy: stream('deploy'),
      pictures: stream('pictures'),
    };
    this.model = modelFor(profile.termType);
    this.limits = thresholdsOf(profile);
    this.onTime = profile.onTime ?? null;
    this.offTime = profile.offTime ?? null;
    this.bins = initialBins(profile, this.model, this.random.profile);
    this.sessionsPerDay = profile.sessionsPerDay ?? drawSessionsPerDay(this.random.profile);
    this.link = new MachineLink({
      credentials: options.credentials,
      nextId: () => `${this.runTag}-${(++this.messageNo).toString(36)}`,
      gate: options.gate ?? (async () => true),
      handlers: {
        onReady: () => void this.introduce(),
        onCommand: (payload) => void this.commands.receive(payload),
        onDeploy: (payload) => void this.deploys.receive(payload),
        onDeployRefused: (error) => this.log(`deploy topic refused (${error.message}): no deployments`),
        onClosed: () => this.log('connection lost'),
        onError: (error) => {
          this.stats.errors++;
          this.log(`mqtt: ${error.message}`);
        },
      },
    });
    this.clock = new SimClock(this.speed, this.random.schedule, options.epoch);
    this.commands = new CommandRunner(this, this.random.commands, options.failureRate ?? 0.05);
    this.deploys = new DeployRunner(this, this.random.deploy, { ...NO_DEPLOY_FAULTS, ...options.deployFaults }, new Set(options.badPackages));
    this.installed = new InstalledPackages(profile.softwareVersion ?? this.model.softwareVersions.at(-1)!);
    this.roster = new MachineRoster(stream('roster'));
    this.settings = new MachineSettings(profile.termType, profile.fleetId ?? null);
    this.promotion = new PromotionScreen();
  }

  keepsContent(resourceType: string) {
    return this.roster.keeps(resourceType) || this.settings.keeps(resourceType) || resourceType === 'promotion' || resourceType === 'ai';
  }

  applyContent(resourceType: string, content: Buffer) {
    if (resourceType === 'promotion') return this.promotion.apply(content);
    if (resourceType === 'ai') {
      // a trained model changes its classification rejects; an AI package from elsewhere keeps the recogniser it has
      this.recogniser = recogniserOf(content) ?? this.recogniser;
      return null;
    }
    if (!this.settings.keeps(resourceType)) return this.roster.apply(resourceType, content);
    const before = this.settings.main;
    const unreadable = this.settings.apply(resourceType, content);
    // a main config (its own package or a config file's section) changes the opening hours and bin limits at once (its language and volume are only kept)
    const main = this.settings.main;
    if (!unreadable && main && main !== before) {
      void this.setBinHeights({ binEmptyHeight: main.binEmptyHeight, binFullHeight: main.binFullHeight, binAlmostFull: main.binAlmostFull, binAlreadyFull: main.binAlreadyFull });
      void this.setOpeningHours(main.onTime, main.offTime);
    }
    // compaction (an H30 config) changes how much its bins hold: their levels and alarms change at once
    const capacity = this.settings.effects().binCapacityFactor;
    if (!unreadable && this.bins.some((bin) => (bin.capacityFactor ?? 1) !== capacity)) {
      for (const bin of this.bins) bin.capacityFactor = capacity;
      void this.send('bins', { bins: this.bins.map((bin) => this.binWire(bin)) }).then(() => this.syncBinAlarms());
    }
    return unreadable;
  }

  get termType() {
    return this.options.profile.termType;
  }

  get secret() {
    return this.options.credentials.secret;
  }

  simulatedNow() {
    return this.clock.now();
  }

  /** Consumer sessions expected per hour now (fewer while degraded). */
  sessionsPerHourNow() {
    return sessionsPerHour(this.sessionsPerDay, this.clock.now()) * (this.installed.degraded ? BAD_PACKAGE_EFFECT.sessionsFactor : 1);
  }

  get connected() {
    return this.link.connected;
  }

  get status(): MachineStatus {
    return this.reported ?? this.desiredStatus();
  }

  openAlarms(): string[] {
    return [...this.alarms.keys()];
  }

  /**
   * What its screen says now, in its screen language (a lang package's texts, else its factory ones): the welcome
   * text while Up, out of service while Down, closed while asleep. The protocol carries no screen text: the remote
   * diagnosis file says it (docs/machine-protocol.md#configuration-packages).
   */
  screenNow(): string {
    const status = this.desiredStatus();
    return this.settings.screenText(status === 'Down' ? 'outOfService' : status === 'Sleep' ? 'closed' : 'welcome');
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.clock.start();
    this.link.connect();
    // At high speeds a real second between beats is plenty: the server's offline time-out is 90 real seconds.
    this.clock.every(Math.max(HEARTBEAT, MIN_REAL_HEARTBEAT_MS * this.speed), () => void this.beat());
    if (this.options.autopilot ?? true) this.autopilot();
  }

  /** Ctrl-C: goodbye `shutdown`, then disconnect. */
  async stop() {
    this.running = false;
    this.clock.stop();
    this.deploys.stop();
    await this.link.goodbye('shutdown');
  }

  /** Runs `action` after `simulated` ms of simulated time. */
  after(simulated: number, action: () => void) {
    this.clock.after(simulated, action);
  }

  private autopilot() {
    this.clock.arrivals(
      () => this.sessionsPerHourNow(),
      () => {
        if (this.connected) void this.syncStatus().then((status) => (status === 'Up' ? this.runSession() : null));
      },
    );
    this.clock.arrivals(
      () => this.model.faultRate / 24,
      () => {
        if (this.connected && this.desiredStatus() !== 'Down') void this.fault();
      },
    );
    this.clock.arrivals(
      () => MINOR_ALARMS_PER_DAY / 24,
      () => {
        if (this.connected) void this.minorAlarm();
      },
    );
    this.clock.arrivals(
      () => OUTAGES_PER_DAY / 24,
      () => {
        if (this.connected) this.outage(Math.min(4 * DAY, Math.max(5 * MINUTE, this.random.schedule.logNormal(1.5 * HOUR, 0.9))));
      },
    );
    const routine = () =>
      this.clock.after(this.random.schedule.uniform(4, 9) * DAY, () => {
        if (this.connected) void this.serviceVisit('routine');
        routine();
      });
    routine();
  }

  // ---- messages ------------------------------------------------------------------------------

  log(line: string) {
    this.options.log?.(`${this.serialNumber}: ${line}`);
  }

  /** Publishes one protocol message (null when it could not go: offline, dropped). */
  async send(kind: string, fields: Record<string, unknown> = {}): Promise<Message | null> {
    const message = await this.link.publish(kind, fields);
    if (!message) {
      this.stats.messagesDropped++;
      return null;
    }
    this.stats.messagesSent++;
    this.recent.push(`${message.ts} ${kind} ${JSON.stringify(fields).slice(0, 160)}`);
    if (this.recent.length > 300) this.recent.shift();
    return message;
  }

  /** After every connect: who it is, how it is, how full it is, and results it could not send before. */
  private async introduce() {
    this.stats.connects++;
    await this.send('hello', { softwareVersion: this.installed.software, model: this.options.profile.termType });
    this.reported = this.desiredStatus();
    await this.send('status', { status: this.reported, ...this.statusReason() });
    await this.send('bins', { bins: this.bins.map((bin) => this.binWire(bin)) });
    await this.commands.flush();
    await this.deploys.flush();
  }

  private async beat() {
    if (!this.connected) return;
    await this.send('heartbeat', { status: await this.syncStatus() });
  }

  private desiredStatus(): MachineStatus {
    if (this.closedByCommand || this.maintenance || [...this.alarms.values()].some((alarm) => alarm.blocking)) return 'Down';
    return isSleepTime(this.onTime, this.offTime, this.clock.now()) ? 'Sleep' : 'Up';
  }

  private statusReason(): { reason?: string } {
    if (this.closedByCommand) return { reason: 'closed' };
    if (this.maintenance) return { reason: 'maintenance' };
    const blocking = [...this.alarms.values()].find((alarm) => alarm.blocking);
    if (blocking) return { reason: blocking.code };
    return this.desiredStatus() === 'Sleep' ? { reason: 'offTime' } : {};
  }

  /** Reports a status change (if any: an alarm, a command, the opening hours) and answers the status now. */
  private async syncStatus(): Promise<MachineStatus> {
    const status = this.desiredStatus();
    if (status !== this.reported && this.connected) {
      this.reported = status;
      await this.send('status', { status, ...this.statusReason() });
    }
    return status;
  }

  private binWire(bin: BinLevel, emptied = false) {
    return { binNo: bin.binNo, currentHeight: heightOf(bin, this.limits), itemCount: bin.count, ...(emptied ? { emptied: true } : {}) };
  }

  private async alarm(code: string, state: 'raised' | 'cleared', detail?: string) {
    const definition = findAlarm(code);
    if (!definition) return;
    if (state === 'raised') {
      if (this.alarms.has(code)) return;
      this.alarms.set(code, definition);
    } else if (!this.alarms.delete(code)) return;
    await this.send('alarm', { code, state, ...(detail ? { detail } : {}) });
    await this.syncStatus();
  }

  /** One alarm per code: almost-full (one code for all bins) while any bin is almost full, full per bin. */
  private async syncBinAlarms() {
    const wanted = new Map<string, string>();
    this.bins.forEach((bin, index) => {
      const code = binAlarmCode(bin, index, this.limits);
      if (code && !wanted.has(code)) wanted.set(code, `Bin ${bin.binNo}: ${fillOf(bin)}%`);
    });
    for (const code of this.alarms.keys()) if (BIN_CODES.has(code) && !wanted.has(code)) await this.alarm(code, 'cleared');
    for (const [code, detail] of wanted) {
      if (this.alarms.has(code)) continue;
      await this.alarm(code, 'raised', detail);
      this.callTechnician(code === KNOWN_ALARMS.binAlmostFull ? 8 * HOUR : 3 * HOUR);
    }
  }

  private callTechnician(meanDelay: number) {
    if (this.binVisitPending) return;
    this.binVisitPending = true;
    this.after(Math.max(45 * MINUTE, this.random.service.exponential(meanDelay)), () => void this.serviceVisit('bins'));
  }

  // ---- what happens at the machine (the autopilot calls these; tests may too) ---------------------

  /** What consumer `number` does at the machine now: its packages, its state and the AI model it runs decide. */
  drawConsumer(number: number) {
    const lowConfidence = this.installed.degraded ? BAD_PACKAGE_EFFECT.lowConfidenceShare : 0;
    return drawSession(this.random.sessions, this.model, this.bins, this.limits, this.options.profile, number, lowConfidence, this.settings, this.recogniser);
  }

  /** A consumer feeds containers and takes a payout. */
  async runSession(): Promise<Message | null> {
    const banned = this.roster.returningBanned(Date.now());
    if (banned) return this.refuse(consumerOfBan(banned));
    const number = ++this.sessionNo;
    const draft = this.drawConsumer(number);
    await this.options.vendorConnect?.duringSession(this.options.credentials, `${this.runTag}-s${number}`, draft);
    const end = Date.now();
    const start = Math.min(end, Math.max(end - (draft.seconds * 1000) / this.speed, this.lastSessionEnd + 1));
    this.lastSessionEnd = end;
    const { items, payoutMethod, totalRefund, userId, voucherCode, voucherValidDays, donationInstituteId, accepted } = draft;
    const message = await this.send('session', {
      sessionId: `${this.runTag}-s${number}`,
      startTime: new Date(start).toISOString(),
      endTime: new Date(end).toISOString(),
      payoutMethod,
      totalRefund,
      userId,
      voucherCode,
      // the printed voucher says until when it can be redeemed (its payout package's validity, from the session's end)
      voucherValidUntil: voucherValidDays ? new Date(end + voucherValidDays * 86_400_000).toISOString() : undefined,
      donationInstituteId,
      items,
    });
    if (message) this.stats.sessions++;
    if (message && this.options.pictures) await this.options.pictures.afterSession(this.options.credentials, `${this.runTag}-s${number}`, items, this.random.pictures);
    const changed = this.bins.filter((_bin, index) => accepted[index] > 0);
    this.bins.forEach((bin, index) => (bin.count += accepted[index]));
    if (changed.length) await this.send('bins', { bins: changed.map((bin) => this.binWire(bin)) });
    await this.syncBinAlarms();
    return message;
  }

  /**
   * A consumer identified at the start (user ID, card or voucher): refused when a ban is in force, with a
   * session that says so (no items, nothing paid: docs/service-personnel.md#bans); else served as usual.
   */
  async arrive(consumer: { userId?: string; cardNo?: string; voucherCode?: string }): Promise<Message | null> {
    return this.roster.banFor(consumer, Date.now()) ? this.refuse(consumer) : this.runSession();
  }

  private async refuse(consumer: { userId?: string; cardNo?: string; voucherCode?: string }) {
    const number = ++this.sessionNo;
    const end = Date.now();
    this.log(`refused banned consumer ${consumer.userId ?? consumer.cardNo ?? consumer.voucherCode}`);
    return this.send('session', {
      sessionId: `${this.runTag}-s${number}`,
      startTime: new Date(Math.max(end - 15_000 / this.speed, this.lastSessionEnd + 1)).toISOString(),
      endTime: new Date(end).toISOString(),
      payoutMethod: 'userCancelledPayment',
      totalRefund: 0,
      ...consumer,
      refusal: 'banned',
      items: [],
    });
  }

  /** A blocking fault: Down until a technician repairs it (or an operator clears it). */
  async fault(code = drawFault(this.random.faults).code) {
    await this.alarm(code, 'raised');
    const repairIn = Math.min(3 * DAY, Math.max(5 * MINUTE, this.random.faults.logNormal(4 * HOUR, 0.9)));
    this.after(repairIn, () => {
      if (this.alarms.has(code)) void this.serviceVisit('repair', code);
    });
  }

  /** A minor alarm that clears on its own after a while. */
  async minorAlarm() {
    const { alarm, duration } = drawMinorAlarm(this.random.faults);
    await this.alarm(alarm.code, 'raised');
    const clear = () => (this.connected ? void this.alarm(alarm.code, 'cleared') : this.after(MINUTE, clear));
    this.after(duration, clear);
  }

  /** The connection breaks without goodbye (the broker sends the will) and comes back after `duration` simulated ms. */
  outage(duration: number) {
    this.log('outage');
    this.link.drop();
    this.after(duration, () => {
      if (!this.closedByCommand) this.link.connect();
    });
  }

  /** A technician's visit: bins emptied, cleaning outcome; a repair clears its fault. */
  async serviceVisit(kind: 'bins' | 'routine' | 'repair', repairs?: string) {
    if (kind === 'bins') this.binVisitPending = false;
    if (!this.connected) {
      if (kind !== 'routine') this.after(30 * MINUTE, () => void this.serviceVisit(kind, repairs));
      return;
    }
    const random = this.random.service;
    const minutes = kind === 'repair' ? random.int(25, 90) : random.int(10, 40);
    const roll = random.next();
    const outcome = kind === 'repair' || roll < 0.88 ? 'completed' : roll < 0.95 ? 'aborted' : 'failed';
    const emptied = outcome === 'completed' ? this.bins.filter((bin) => fillOf(bin) >= (kind === 'bins' ? 10 : 30)) : [];
    const end = Date.now();
    // with a personnel package, a person whose level allows the visit signs in (their login name is reported)
    const person = this.roster.technicianFor(kind === 'repair' ? 'repair' : kind === 'bins' ? 'emptyBins' : 'clean');
    await this.send('service', {
      serviceId: `${this.runTag}-v${++this.serviceNo}`,
      technician: person?.loginName ?? random.pick(TECHNICIANS),
      startTime: new Date(end - (minutes * MINUTE) / this.speed).toISOString(),
      endTime: new Date(end).toISOString(),
      cleaningOutcome: outcome,
      binsEmptied: emptied.length,
      ...(repairs ? { note: `Repair: ${repairs}` } : {}),
    });
    for (const bin of emptied) bin.count = 0;
    if (emptied.length) await this.send('bins', { bins: emptied.map((bin) => this.binWire(bin, true)) });
    if (repairs) await this.alarm(repairs, 'cleared');
    await this.syncBinAlarms();
    if (outcome !== 'completed' && this.bins.some((bin) => fillOf(bin) >= this.limits.binAlmostFull)) this.callTechnician(4 * HOUR);
  }

  // ---- what commands do (the command runner answers them) ---------------------------------------

  /** Goodbye `shutdown`, back a few (simulated) seconds later with a new hello. */
  async restart() {
    await this.link.goodbye('shutdown');
    this.after(this.random.commands.uniform(5_000, 20_000), () => this.link.connect());
  }

  /** Status Down, goodbye `closed`, and away until reopened `reopenAfterSeconds` later. */
  async close() {
    this.closedByCommand = true;
    await this.syncStatus();
    await this.link.goodbye('closed');
    this.after((this.options.reopenAfterSeconds ?? 120) * 1000, () => {
      this.closedByCommand = false;
      this.link.connect();
    });
  }

  async open(): Promise<string | null> {
    const blocking = [...this.alarms.values()].find((alarm) => alarm.blocking);
    if (blocking) return `Blocking alarm ${blocking.code} is open`;
    this.closedByCommand = false;
    this.maintenance = false;
    await this.syncStatus();
    return null;
  }

  async clearAlarms(): Promise<number> {
    const open = [...this.alarms.keys()];
    for (const code of open) await this.alarm(code, 'cleared', 'cleared remotely');
    return open.length;
  }

  async setOpeningHours(onTime: string, offTime: string) {
    this.onTime = onTime;
    this.offTime = offTime;
    await this.syncStatus();
  }

  async setBinHeights(limits: Thresholds) {
    this.limits = { ...limits };
    await this.syncBinAlarms();
  }

  async setMaintenance(enabled: boolean) {
    this.maintenance = enabled;
    await this.syncStatus();
  }

  /** The file a downloadLogs / remoteDiagnosis command uploads. */
  report(kind: 'log' | 'diagnosis', params: Record<string, unknown>) {
    return generatedFile(kind, this.serialNumber, kind === 'log' ? logExcerpt(this.recent, params.from, params.to) : this.diagnosis());
  }

  private diagnosis() {
    return [
      `model ${this.model.name}, software ${this.installed.software}`,
      `status ${this.status}${this.statusReason().reason ? ` (${this.statusReason().reason})` : ''}`,
      `open alarms: ${this.openAlarms().join(', ') || 'none'}`,
      ...this.bins.map((bin) => `bin ${bin.binNo} ${bin.itemType}: ${fillOf(bin)}% (${bin.count} items, sensor ${heightOf(bin, this.limits)} cm)`),
      `opening hours ${this.onTime ?? '00:00'}-${this.offTime ?? '23:59'}; sessions since start ${this.stats.sessions}`,
      `screen (${this.settings.screenLanguage()}): ${JSON.stringify(this.screenNow())}`,
      ...[this.settings.h30Summary()].filter((summary) => summary !== null).map((summary) => `H30 settings: ${summary}`),
      ...[this.settings.configFileSummary()].filter((summary) => summary !== null).map((summary) => `config file: ${summary}`),
      ...['sorter', 'compactor', 'camera', 'conveyor', 'paymentReader'].map((unit) => `${unit}: ${this.random.commands.chance(0.9) ? 'OK' : 'WARN (check soon)'}`),
    ];
  }
}

// Deployments as a machine takes them (docs/deployments.md, "Protocol" and "Simulator"): a deploy
// message on `rvm/<serial>/down/deploy` is read strictly, run once per `deployId`, downloaded
// (download.ts), checked (size, SHA-256), applied at its activation time on the machine's clock, and
// every step reported as a `deployStatus`. The failure modes happen at the configured rates; a "bad"
// package (version ending in `-bad`, or a name listed as bad) degrades the machine that applied it.
import type { DeployState } from '../../resources/deploymentPackage';
import type { Random } from '../seed/random';
import { downloadPackage } from './download';

export interface DeployMessage {
  deployId: number;
  resourceType: string;
  name: string;
  version: string;
  url: string;
  size: number;
  sha256: string;
  activateAt: string | null;
  expiresAt: string | null;
}

/** Shares (0-1) of deliveries that meet each failure mode. */
export interface DeployFaults {
  /** The download's connection is cut once mid-way (the machine resumes it with a Range request). */
  broken: number;
  /** A byte arrives corrupted: `checksumFailed`. */
  checksum: number;
  /** Applying fails: `failed` with a reason. */
  applyFailure: number;
  /** The machine never says anything about the delivery (the server's deadline turns it into no feedback). */
  silent: number;
}

export const NO_DEPLOY_FAULTS: DeployFaults = { broken: 0, checksum: 0, applyFailure: 0, silent: 0 };
/** Small but visible in the demo (README, settings table). */
export const DEMO_DEPLOY_FAULTS: DeployFaults = { broken: 0.05, checksum: 0.01, applyFailure: 0.02, silent: 0.01 };

/** How a machine that applied a bad package behaves: more items rejected as low confidence (4), fewer consumers. */
export const BAD_PACKAGE_EFFECT = { lowConfidenceShare: 0.4, sessionsFactor: 0.6 } as const;

export const isBadPackage = (deploy: Pick<DeployMessage, 'name' | 'version'>, badNames: ReadonlySet<string>) => deploy.version.endsWith('-bad') || badNames.has(deploy.name);

export type DeployCheck = { ok: true; deploy: DeployMessage } | { ok: false; deployId: number | null; reason: string };

const isIso = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));
const isText = (value: unknown) => typeof value === 'string' && value.length > 0;

/** Reads a deploy payload as firmware would: strictly. */
export const checkDeploy = (payload: Buffer | string): DeployCheck => {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString());
  } catch {
    return { ok: false, deployId: null, reason: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { ok: false, deployId: null, reason: 'not an object' };
  const body = value as Record<string, unknown>;
  const deployId = Number.isSafeInteger(body.deployId) ? (body.deployId as number) : null;
  if (deployId === null) return { ok: false, deployId: null, reason: 'no deployId' };
  const refuse = (reason: string): DeployCheck => ({ ok: false, deployId, reason: `invalid deploy message: ${reason}` });
  if (body.v !== 1) return refuse(`unsupported protocol version ${String(body.v)}`);
  for (const field of ['resourceType', 'name', 'version', 'url'] as const) if (!isText(body[field])) return refuse(`${field} missing`);
  if (!Number.isSafeInteger(body.size) || (body.size as number) < 0) return refuse('size must be a whole number of bytes');
  if (typeof body.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(body.sha256)) return refuse('sha256 must be 64 hex digits');
  for (const field of ['activateAt', 'expiresAt'] as const) {
    if (body[field] !== undefined && body[field] !== null && !isIso(body[field])) return refuse(`${field} is not a date-time`);
  }
  return {
    ok: true,
    deploy: {
      deployId,
      resourceType: body.resourceType as string,
      name: body.name as string,
      version: body.version as string,
      url: body.url as string,
      size: body.size as number,
      sha256: body.sha256.toLowerCase(),
      activateAt: (body.activateAt as string | undefined) ?? null,
      expiresAt: (body.expiresAt as string | undefined) ?? null,
    },
  };
};

/** What an apply that fails says. */
export const APPLY_FAILURE_REASONS = [
  'Not enough disk space to unpack the package',
  'Installer exited with code 3',
  'Package signature rejected by the controller',
  'Previous version restored after a failed self-test',
] as const;

export interface DeployStats {
  deploysReceived: number;
  deploysApplied: number;
  downloadResumes: number;
}

/** What a machine has installed: its software version (what hello says), each other type's version, bad packages in place. */
export class InstalledPackages {
  readonly versions = new Map<string, string>();
  /** Resource types whose current package is bad: the machine does worse while any is. */
  private readonly badTypes = new Set<string>();

  constructor(public software: string) {}

  get degraded() {
    return this.badTypes.size > 0;
  }

  /** A bad package degrades the machine until its type gets a good one. */
  install(deploy: DeployMessage, bad: boolean) {
    if (deploy.resourceType === 'software') this.software = deploy.version;
    else this.versions.set(deploy.resourceType, deploy.version);
    if (bad) this.badTypes.add(deploy.resourceType);
    else this.badTypes.delete(deploy.resourceType);
  }
}

/** What the deploy runner needs of its machine. */
export interface DeployTarget {
  readonly serialNumber: string;
  readonly secret: string;
  readonly stats: DeployStats;
  send(kind: string, fields: Record<string, unknown>): Promise<unknown>;
  after(simulatedMs: number, action: () => void): void;
  /** The machine's (simulated) clock, which activation times are compared with. */
  simulatedNow(): number;
  log(line: string): void;
  readonly installed: InstalledPackages;
  /** Resource types whose bytes the machine reads when applying (the others are only counted and hashed). */
  keepsContent?(resourceType: string): boolean;
  /** Applies content it reads (personnel, ban list: server/simulator/roster.ts); a text is why it cannot. */
  applyContent?(resourceType: string, content: Buffer): string | null;
}

/** The largest content a machine keeps to read (a personnel or ban list package is a few KB). */
const KEEP_BYTES = 4 * 1024 * 1024;

type Report = { deployId: number; state: DeployState; version?: string; reason?: string };

const FAILED_STATES: ReadonlySet<string> = new Set(['downloadFailed', 'checksumFailed', 'failed']);

export class DeployRunner {
  private readonly seen = new Set<number>();
  /** Statuses not yet acknowledged by the broker, in order (sent after the next connect). */
  private readonly unsent: Report[] = [];
  private flushing = false;
  private readonly stopped = new AbortController();

  constructor(
    private readonly machine: DeployTarget,
    private readonly random: Random,
    private readonly faults: DeployFaults,
    private readonly badNames: ReadonlySet<string>,
  ) {}

  async receive(payload: Buffer) {
    const { machine } = this;
    machine.stats.deploysReceived++;
    const check = checkDeploy(payload);
    if (!check.ok) {
      if (check.deployId === null) return machine.log(`unreadable deploy message: ${check.reason}`);
      if (this.seen.has(check.deployId)) return;
      this.seen.add(check.deployId);
      return this.report({ deployId: check.deployId, state: 'failed', reason: check.reason });
    }
    const { deploy } = check;
    // The server may deliver it again (our answer got lost): the delivery is already under way.
    if (this.seen.has(deploy.deployId)) return machine.log(`deploy ${deploy.deployId} again: ignored`);
    this.seen.add(deploy.deployId);
    // Every roll at receipt, in one order: the same seed gives the same outcome whatever the timing.
    const { random, faults } = this;
    const silent = random.chance(faults.silent);
    const cutAfter = random.chance(faults.broken) ? Math.max(1, Math.floor(random.uniform(0.1, 0.9) * deploy.size)) : undefined;
    const corrupt = random.chance(faults.checksum);
    const applyFails = random.chance(faults.applyFailure);
    if (silent) return machine.log(`deploy ${deploy.deployId}: no answer (simulated)`);
    await this.report({ deployId: deploy.deployId, state: 'received' });
    const outcome = await downloadPackage({
      url: deploy.url,
      serialNumber: machine.serialNumber,
      secret: machine.secret,
      size: deploy.size,
      cutAfter,
      corrupt,
      keepBytes: machine.keepsContent?.(deploy.resourceType) ? KEEP_BYTES : undefined,
      signal: this.stopped.signal,
      // a stopped machine's clock runs no more timers: the stop ends the wait too
      pause: (attempt) =>
        new Promise((resolve) => {
          machine.after(attempt * 5_000, () => resolve());
          this.stopped.signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
    machine.stats.downloadResumes += outcome.resumes;
    if (this.stopped.signal.aborted) return;
    if (!outcome.ok) return this.report({ deployId: deploy.deployId, state: 'downloadFailed', reason: outcome.reason });
    if (outcome.bytes !== deploy.size) {
      return this.report({ deployId: deploy.deployId, state: 'checksumFailed', reason: `size ${outcome.bytes} bytes, announced ${deploy.size}` });
    }
    if (outcome.sha256 !== deploy.sha256) {
      return this.report({ deployId: deploy.deployId, state: 'checksumFailed', reason: `SHA-256 ${outcome.sha256} does not match` });
    }
    const wait = deploy.activateAt ? Date.parse(deploy.activateAt) - machine.simulatedNow() : 0;
    if (wait > 0) machine.log(`deploy ${deploy.deployId}: downloaded, applying at ${deploy.activateAt}`);
    const content = 'content' in outcome ? outcome.content : undefined;
    machine.after(Math.max(0, wait), () => void this.apply(deploy, applyFails, content));
  }

  private async apply(deploy: DeployMessage, fails: boolean, content?: Buffer) {
    const { machine, random } = this;
    await this.report({ deployId: deploy.deployId, state: 'applying' });
    // Simulated seconds: a software install takes longer than a configuration file.
    const duration = deploy.resourceType === 'software' ? random.uniform(20_000, 90_000) : random.uniform(2_000, 10_000);
    machine.after(duration, () => {
      if (fails) {
        void this.report({ deployId: deploy.deployId, state: 'failed', reason: random.pick(APPLY_FAILURE_REASONS) });
        return;
      }
      const unreadable = content && machine.applyContent ? machine.applyContent(deploy.resourceType, content) : null;
      if (unreadable) {
        void this.report({ deployId: deploy.deployId, state: 'failed', reason: unreadable });
        return;
      }
      const bad = isBadPackage(deploy, this.badNames);
      machine.installed.install(deploy, bad);
      machine.stats.deploysApplied++;
      machine.log(`applied ${deploy.resourceType} ${deploy.name} ${deploy.version}${bad ? ' (bad)' : ''}`);
      void this.report({ deployId: deploy.deployId, state: 'applied', version: deploy.version });
    });
  }

  private report(report: Report) {
    // A delivery that failed here is taken again when it comes again: that is the operator's "retry failed"
    // (docs/machine-protocol.md "Deployments"); one under way or applied stays ignored.
    if (FAILED_STATES.has(report.state)) this.seen.delete(report.deployId);
    this.unsent.push(report);
    return this.flush();
  }

  /** Sends the statuses owed, in order; what cannot go now waits for the next connect. */
  async flush() {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.unsent.length) {
        if (!(await this.machine.send('deployStatus', this.unsent[0]))) break;
        this.unsent.shift();
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The machine stops: downloads under way end. */
  stop() {
    this.stopped.abort();
  }
}

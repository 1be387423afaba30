// Many virtual machines at once: provisioned a few at a time (a credential rotation hashes a secret
// on the server), connected staggered so the broker is not hit by all of them in the same second,
// publishing within one shared budget, with the counters the CLI prints.
import type { DeployFaults } from './deploy';
import type { MachineCredentials } from './link';
import { VirtualMachine, type VirtualMachineOptions } from './machine';
import { PublishGate } from './rate';
import type { VendorConnectClient } from './vendorConnect';
import type { PictureUploader } from './pictureUpload';
import type { MachineProfile } from './world';

/** A machine to simulate: its console record (id and account when known). */
export type SimulatedMachine = MachineProfile & { id?: number; licenseAccountId?: number };

/** How a virtual machine gets its secret and where it connects. */
export type Provision = (machine: SimulatedMachine) => Promise<MachineCredentials>;

export interface FleetOptions {
  machines: readonly SimulatedMachine[];
  provision: Provision;
  seed: string | number;
  speed?: number;
  failureRate?: number;
  reopenAfterSeconds?: number;
  /** Deployment failure modes (default none) and bad package names (docs/deployments.md, "Simulator"). */
  deployFaults?: Partial<DeployFaults>;
  badPackages?: readonly string[];
  /** Messages per second for the whole fleet (default 500). */
  maxMessagesPerSecond?: number;
  /** Real ms between two connects (default: the fleet spread over about 10 s, at most 100 ms apart). */
  connectSpacingMs?: number;
  /** Provisioning calls running at once (default 4). */
  provisionConcurrency?: number;
  autopilot?: boolean;
  /** Vendor connect during sessions, shared by the fleet's machines (default: none). */
  vendorConnect?: VendorConnectClient;
  /** Item picture uploads after sessions, shared by the fleet's machines (default: none). */
  pictures?: PictureUploader;
  log?: (line: string) => void;
}

export interface FleetStats {
  machines: number;
  provisioned: number;
  connected: number;
  messagesSent: number;
  messagesDropped: number;
  commandsReceived: number;
  commandsAnswered: number;
  sessions: number;
  errors: number;
  provisionFailures: number;
  deploysReceived: number;
  deploysApplied: number;
  downloadResumes: number;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Fleet {
  readonly machines: VirtualMachine[] = [];
  private readonly gate: PublishGate;
  private readonly runTag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  /** One simulated clock for the whole fleet: its machines agree on the hour of day. */
  private readonly epoch = Date.now();
  private provisionFailures = 0;
  private stopping = false;
  private starting: Promise<void> | null = null;

  constructor(private readonly options: FleetOptions) {
    this.gate = new PublishGate(options.maxMessagesPerSecond ?? 500);
  }

  /** Provisions and connects every machine; resolves when all have been started (not necessarily connected). */
  start(): Promise<void> {
    this.starting ??= this.startAll();
    return this.starting;
  }

  private async startAll() {
    const { machines, provision } = this.options;
    const spacing = this.options.connectSpacingMs ?? Math.min(100, 10_000 / Math.max(1, machines.length));
    let next = 0;
    let lastConnect = 0;
    const worker = async () => {
      while (!this.stopping && next < machines.length) {
        const machine = machines[next++];
        let credentials: MachineCredentials;
        try {
          credentials = await provision(machine);
        } catch (error) {
          this.provisionFailures++;
          this.options.log?.(`${machine.serialNumber}: provisioning failed: ${(error as Error).message}`);
          continue;
        }
        // Staggered: each connect waits its turn after the previous one.
        const turn = Math.max(Date.now(), lastConnect + spacing);
        lastConnect = turn;
        await wait(turn - Date.now());
        if (this.stopping) return;
        const virtual = new VirtualMachine(this.machineOptions(machine, credentials));
        this.machines.push(virtual);
        virtual.start();
      }
    };
    await Promise.all(Array.from({ length: Math.min(machines.length, this.options.provisionConcurrency ?? 4) }, worker));
  }

  private machineOptions(profile: SimulatedMachine, credentials: MachineCredentials): VirtualMachineOptions {
    const { seed, speed, failureRate, reopenAfterSeconds, autopilot, log, deployFaults, badPackages, vendorConnect, pictures } = this.options;
    return {
      profile,
      credentials,
      seed,
      speed,
      failureRate,
      reopenAfterSeconds,
      autopilot,
      log,
      deployFaults,
      badPackages,
      vendorConnect,
      pictures,
      runTag: this.runTag,
      epoch: this.epoch,
      gate: this.gate.take,
    };
  }

  stats(): FleetStats {
    const sum = (pick: (machine: VirtualMachine) => number) => this.machines.reduce((total, machine) => total + pick(machine), 0);
    return {
      machines: this.options.machines.length,
      provisioned: this.machines.length,
      connected: this.machines.filter((machine) => machine.connected).length,
      messagesSent: sum((m) => m.stats.messagesSent),
      messagesDropped: sum((m) => m.stats.messagesDropped),
      commandsReceived: sum((m) => m.stats.commandsReceived),
      commandsAnswered: sum((m) => m.stats.commandsAnswered),
      sessions: sum((m) => m.stats.sessions),
      errors: sum((m) => m.stats.errors),
      provisionFailures: this.provisionFailures,
      deploysReceived: sum((m) => m.stats.deploysReceived),
      deploysApplied: sum((m) => m.stats.deploysApplied),
      downloadResumes: sum((m) => m.stats.downloadResumes),
    };
  }

  /** Every machine says goodbye (`shutdown`) and disconnects. */
  async stop() {
    this.stopping = true;
    this.gate.release();
    await this.starting?.catch(() => undefined);
    await Promise.all(this.machines.map((machine) => machine.stop().catch(() => undefined)));
  }
}

/** Starts a fleet (provisioning and connecting in the background) and answers it. */
export const startFleet = (options: FleetOptions): Fleet => {
  const fleet = new Fleet(options);
  void fleet.start();
  return fleet;
};

// Commands as a machine receives them (docs/machine-protocol.md, "Commands"): what it accepts, what
// it refuses at once (unknown command, one its model lacks, bad parameters, expired), and what a
// failed execution says. The catalogue and its rules are the console's (resources/commands.ts).
import { isRemoteCommand, supportsCommand, type RemoteCommand } from '../../resources/commands';
import { validateCommandParams } from '../../resources/commandParams';
import type { Random } from '../seed/random';

export interface Command {
  commandId: number;
  command: RemoteCommand;
  params: Record<string, unknown>;
  expiresAt?: string;
}

export type CommandCheck =
  | { accepted: true; command: Command }
  /** `commandId` null: the payload cannot even be answered. */
  | { accepted: false; commandId: number | null; reason: string };

const isIso = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** Reads a command payload the way the machine's firmware would: strictly. */
export const checkCommand = (payload: Buffer | string, termType: string, now = Date.now()): CommandCheck => {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString());
  } catch {
    return { accepted: false, commandId: null, reason: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { accepted: false, commandId: null, reason: 'not an object' };
  const body = value as Record<string, unknown>;
  const commandId = Number.isSafeInteger(body.commandId) ? (body.commandId as number) : null;
  if (commandId === null) return { accepted: false, commandId: null, reason: 'no commandId' };
  const refuse = (reason: string): CommandCheck => ({ accepted: false, commandId, reason });
  if (body.v !== 1) return refuse(`unsupported protocol version ${String(body.v)}`);
  if (!isRemoteCommand(body.command)) return refuse(`unknown command ${String(body.command)}`);
  const command = body.command;
  if (!supportsCommand(termType, command)) return refuse(`${command} is not supported by model ${termType}`);
  const params = body.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return refuse('params must be an object');
  if (body.expiresAt !== undefined && (!isIso(body.expiresAt) || Date.parse(body.expiresAt as string) < now)) return refuse('expired');
  const issues = validateCommandParams(command, params as Record<string, unknown>);
  if (issues.length) return refuse(`invalid parameters: ${issues.map((issue) => `${issue.field} (${issue.message})`).join(', ')}`.slice(0, 200));
  return { accepted: true, command: { commandId, command, params: params as Record<string, unknown>, expiresAt: body.expiresAt as string | undefined } };
};

/** What a machine says when a command fails (the `--failure-rate` share of executions). */
export const FAILURE_REASONS: Partial<Record<RemoteCommand, readonly string[]>> & { any: readonly string[] } = {
  any: ['Controller did not answer in time', 'Busy: a consumer session is in progress', 'Internal error 0x3F while applying'],
  downloadLogs: ['Log storage unreadable', 'Upload failed: no space on the transfer buffer'],
  remoteDiagnosis: ['Diagnosis aborted: a unit did not answer'],
  restartC750: ['C750 unit not responding on the serial bus'],
  open: ['Door interlock still engaged'],
};

/** What the command runner needs of its machine: the channel, the clock, and what each command does. */
export interface CommandTarget {
  readonly termType: string;
  readonly stats: { commandsReceived: number; commandsAnswered: number };
  send(kind: string, fields: Record<string, unknown>): Promise<unknown>;
  after(simulatedMs: number, action: () => void): void;
  log(line: string): void;
  restart(): Promise<void>;
  close(): Promise<void>;
  /** Answers why it cannot open, or null. */
  open(): Promise<string | null>;
  clearAlarms(): Promise<number>;
  setOpeningHours(onTime: string, offTime: string): Promise<void>;
  setBinHeights(limits: { binEmptyHeight: number; binFullHeight: number; binAlmostFull: number; binAlreadyFull: number }): Promise<void>;
  setMaintenance(enabled: boolean): Promise<void>;
  report(kind: 'log' | 'diagnosis', params: Record<string, unknown>): { name: string; contentType: string; data: string };
}

type Result = Record<string, unknown> & { commandId: number; success: boolean };

/**
 * The machine's side of a command: `commandAck` at once, `commandResult` 1-5 simulated seconds
 * later (a share of them failed), each command run once even when the server delivers it again,
 * and results that could not be sent (connection gone) sent after the next connect.
 */
export class CommandRunner {
  private readonly seen = new Map<number, { result: Result | null }>();
  private readonly unsent: Result[] = [];

  constructor(
    private readonly machine: CommandTarget,
    private readonly random: Random,
    private readonly failureRate: number,
  ) {}

  async receive(payload: Buffer) {
    const { machine } = this;
    machine.stats.commandsReceived++;
    const check = checkCommand(payload, machine.termType);
    if (!check.accepted) {
      if (check.commandId === null) return machine.log(`unreadable command: ${check.reason}`);
      await machine.send('commandAck', { commandId: check.commandId, accepted: false, reason: check.reason });
      machine.stats.commandsAnswered++;
      return;
    }
    const { command } = check;
    // A redelivery (the server did not get our answer): say again what we said, do not run it twice.
    const known = this.seen.get(command.commandId);
    if (known) {
      await (known.result ? machine.send('commandResult', known.result) : machine.send('commandAck', { commandId: command.commandId, accepted: true }));
      return;
    }
    const entry = { result: null as Result | null };
    this.seen.set(command.commandId, entry);
    await machine.send('commandAck', { commandId: command.commandId, accepted: true });
    machine.after(this.random.uniform(1000, 5000), () => {
      void this.execute(command).then((result) => {
        entry.result = result;
      });
    });
  }

  /** After a reconnect: the results the machine owes the server. */
  async flush() {
    for (const result of this.unsent.splice(0)) await this.answer(result);
  }

  private async answer(result: Result) {
    if (!(await this.machine.send('commandResult', result))) {
      this.unsent.push(result);
      return;
    }
    this.machine.stats.commandsAnswered++;
  }

  private async execute(command: Command): Promise<Result> {
    const { machine } = this;
    const { commandId, params } = command;
    const finish = async (success: boolean, message?: string) => {
      const result: Result = { commandId, success, ...(message ? { message } : {}) };
      await this.answer(result);
      return result;
    };
    if (this.random.chance(this.failureRate)) {
      return finish(false, this.random.pick(FAILURE_REASONS[command.command] ?? FAILURE_REASONS.any));
    }
    switch (command.command) {
      case 'restart': {
        // The result first: a restarting machine cannot answer afterwards.
        const result = await finish(true, 'Restarting');
        await machine.restart();
        return result;
      }
      case 'close': {
        const result = await finish(true, 'Closed');
        await machine.close();
        return result;
      }
      case 'open': {
        const refusal = await machine.open();
        return refusal ? finish(false, refusal) : finish(true, 'Open');
      }
      case 'clearAlarms':
        return finish(true, `${await machine.clearAlarms()} alarm(s) cleared`);
      case 'setOnOffTime':
        await machine.setOpeningHours(params.onTime as string, params.offTime as string);
        return finish(true, `Opening hours ${String(params.onTime)}-${String(params.offTime)}`);
      case 'binHeight':
        await machine.setBinHeights(params as Parameters<CommandTarget['setBinHeights']>[0]);
        return finish(true, 'Bin heights applied');
      case 'maintenance':
        await machine.setMaintenance(params.enabled as boolean);
        return finish(true, params.enabled ? 'Maintenance mode on' : 'Maintenance mode off');
      case 'downloadLogs':
      case 'remoteDiagnosis': {
        const kind = command.command === 'downloadLogs' ? 'log' : 'diagnosis';
        const file = machine.report(kind, params);
        if (!(await machine.send('file', { commandId, kind, ...file }))) return finish(false, 'Upload failed');
        return finish(true, file.name);
      }
      default:
        return finish(true, 'Done');
    }
  }
}

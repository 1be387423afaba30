// The fleet simulator's virtual machines against a real MQTT broker (aedes on a free port, no access
// rules) and a recording subscriber: what they send follows docs/machine-protocol.md, commands get
// an ack then a result, close/reopen and lost connections behave as the protocol says, and a seed
// makes a machine repeatable. Time runs fast (speed factor); every wait is for a condition.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFleet } from '../../server/simulator/fleet';
import { VirtualMachine, type VirtualMachineOptions } from '../../server/simulator/machine';
import { PublishGate } from '../../server/simulator/rate';
import { isSleepTime, sessionsPerHour, type MachineProfile } from '../../server/simulator/world';
import { schemaProblem, type MessageKind } from '../../server/gateway/protocol';
import { protocolProblems, startTestBroker, type Recorded, type TestBroker } from './simulatorHarness';

const KINDS = ['hello', 'goodbye', 'heartbeat', 'status', 'bins', 'alarm', 'session', 'service', 'commandAck', 'commandResult', 'file'];
const WAIT = { timeout: 20_000, interval: 20 };

let broker: TestBroker;
const machines: VirtualMachine[] = [];
const originalStart = VirtualMachine.prototype.start;

beforeAll(async () => {
  broker = await startTestBroker();
});

afterAll(async () => {
  await Promise.all(machines.map((machine) => machine.stop()));
  await broker?.close();
});

const profile = (serialNumber: string, extra: Partial<MachineProfile> = {}): MachineProfile => ({
  serialNumber,
  termType: 'T9',
  binCount: 3,
  binEmptyHeight: 120,
  binFullHeight: 25,
  binAlmostFull: 80,
  binAlreadyFull: 98,
  onTime: '00:00',
  offTime: '23:59',
  softwareVersion: '5.1.0',
  ...extra,
});

const virtual = (serial: string, options: Partial<VirtualMachineOptions> = {}, extra: Partial<MachineProfile> = {}) => {
  const machine = new VirtualMachine({
    profile: profile(serial, extra),
    credentials: { serialNumber: serial, secret: `secret-of-${serial}`, brokerUrl: broker.url },
    seed: 'simulator-test',
    speed: 1000,
    failureRate: 0,
    autopilot: false,
    ...options,
  });
  machines.push(machine);
  return machine;
};

const started = async (machine: VirtualMachine) => {
  const hellos = broker.of(machine.serialNumber, 'hello').length;
  machine.start();
  await vi.waitFor(() => expect(broker.of(machine.serialNumber, 'bins').length).toBeGreaterThan(0), WAIT);
  await vi.waitFor(() => expect(broker.of(machine.serialNumber, 'hello').length).toBe(hellos + 1), WAIT);
  return machine;
};

const one = (serial: string, kind: string, where: (payload: Record<string, any>) => boolean = () => true) => broker.of(serial, kind).find((m) => where(m.payload));

const waitOne = async (serial: string, kind: string, where?: (payload: Record<string, any>) => boolean): Promise<Recorded> => {
  let found: Recorded | undefined;
  await vi.waitFor(() => {
    found = one(serial, kind, where);
    expect(found, `${serial} ${kind}`).toBeDefined();
  }, WAIT);
  return found!;
};

let commandIds = 100;
const command = async (serial: string, name: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
  const commandId = ++commandIds;
  await broker.command(serial, { v: 1, commandId, command: name, params, expiresAt: new Date(Date.now() + 60_000).toISOString(), ...extra });
  return commandId;
};

const expectProtocol = (serial: string) => {
  const sent = broker.of(serial);
  expect(sent.flatMap((m) => protocolProblems(m.kind, m.payload))).toEqual([]);
  // And the gateway's own schemas (server/gateway/protocol.ts) accept every message.
  expect(sent.map((m) => schemaProblem(m.kind as MessageKind, m.payload)).filter(Boolean)).toEqual([]);
  const ids = sent.map((m) => m.payload.id);
  expect(new Set(ids).size).toBe(ids.length);
  return sent;
};

describe('virtual machine', () => {
  it('speaks every message kind of the protocol, each with its head and fields', async () => {
    const machine = await started(virtual('SIMALL01'));
    expect(broker.logins).toContainEqual({ clientId: 'SIMALL01', username: 'SIMALL01', password: 'secret-of-SIMALL01', at: expect.any(Number) });
    const hello = one('SIMALL01', 'hello')!;
    expect(hello.payload).toMatchObject({ model: 'T9', softwareVersion: '5.1.0' });
    expect(one('SIMALL01', 'status')!.payload.status).toBe('Up');
    expect(one('SIMALL01', 'bins')!.payload.bins.map((bin: { binNo: number }) => bin.binNo)).toEqual([1, 2, 3]);

    for (let i = 0; i < 3; i++) await machine.runSession();
    await machine.fault('am_code_PK_22');
    await waitOne('SIMALL01', 'status', (p) => p.status === 'Down' && p.reason === 'am_code_PK_22');
    const clear = await command('SIMALL01', 'clearAlarms');
    await waitOne('SIMALL01', 'commandResult', (p) => p.commandId === clear && p.success === true);
    await waitOne('SIMALL01', 'alarm', (p) => p.code === 'am_code_PK_22' && p.state === 'cleared');
    expect(machine.status).toBe('Up');
    await machine.serviceVisit('bins');
    const logs = await command('SIMALL01', 'downloadLogs');
    const diagnosis = await command('SIMALL01', 'remoteDiagnosis');
    const file = await waitOne('SIMALL01', 'file', (p) => p.commandId === logs && p.kind === 'log');
    expect(Buffer.from(file.payload.data, 'base64').toString()).toContain('session');
    await waitOne('SIMALL01', 'file', (p) => p.commandId === diagnosis && p.kind === 'diagnosis');
    const result = await waitOne('SIMALL01', 'commandResult', (p) => p.commandId === diagnosis && p.success);
    expect(result.seq).toBeGreaterThan(one('SIMALL01', 'file', (p) => p.commandId === diagnosis)!.seq);
    await waitOne('SIMALL01', 'heartbeat', (p) => p.status === 'Up');
    machine.outage(60_000);
    await waitOne('SIMALL01', 'goodbye', (p) => p.reason === 'lost');
    await vi.waitFor(() => expect(broker.of('SIMALL01', 'hello')).toHaveLength(2), WAIT);
    await machine.stop();
    await waitOne('SIMALL01', 'goodbye', (p) => p.reason === 'shutdown');

    const sent = expectProtocol('SIMALL01');
    expect(new Set(sent.map((m) => m.kind))).toEqual(new Set(KINDS));
    const sessions = broker.of('SIMALL01', 'session');
    expect(sessions).toHaveLength(3);
    expect(new Set(sessions.map((m) => m.payload.sessionId)).size).toBe(3);
  });

  it('acknowledges a command at once, executes it after a delay, and refuses what it cannot do', async () => {
    await started(virtual('SIMCMD01', { speed: 100 }));
    const restart = await command('SIMCMD01', 'restart');
    const ack = await waitOne('SIMCMD01', 'commandAck', (p) => p.commandId === restart);
    expect(ack.payload.accepted).toBe(true);
    const result = await waitOne('SIMCMD01', 'commandResult', (p) => p.commandId === restart);
    expect(result.payload.success).toBe(true);
    // 1-5 s at speed 100: at least 10 ms after the ack.
    expect(Date.parse(result.payload.ts) - Date.parse(ack.payload.ts)).toBeGreaterThanOrEqual(10);
    const goodbye = await waitOne('SIMCMD01', 'goodbye', (p) => p.reason === 'shutdown');
    await vi.waitFor(() => expect(broker.of('SIMCMD01', 'hello')).toHaveLength(2), WAIT);
    expect(ack.seq < result.seq && result.seq < goodbye.seq && goodbye.seq < broker.of('SIMCMD01', 'hello')[1].seq).toBe(true);

    const unknown = await command('SIMCMD01', 'selfDestruct');
    const expired = await command('SIMCMD01', 'open', {}, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const badHours = await command('SIMCMD01', 'setOnOffTime', { onTime: '22:00', offTime: '06:00' });
    for (const [id, reason] of [
      [unknown, /unknown command/],
      [expired, /expired/],
      [badHours, /invalid parameters: params\.offTime/],
    ] as const) {
      const refusal = await waitOne('SIMCMD01', 'commandAck', (p) => p.commandId === id);
      expect(refusal.payload.accepted).toBe(false);
      expect(refusal.payload.reason).toMatch(reason);
    }

    const maintenance = await command('SIMCMD01', 'maintenance', { enabled: true });
    await waitOne('SIMCMD01', 'commandResult', (p) => p.commandId === maintenance && p.success);
    await waitOne('SIMCMD01', 'status', (p) => p.status === 'Down' && p.reason === 'maintenance');
    const open = await command('SIMCMD01', 'open');
    await waitOne('SIMCMD01', 'commandResult', (p) => p.commandId === open && p.success);
    await vi.waitFor(() => expect(broker.of('SIMCMD01', 'status').at(-1)!.payload.status).toBe('Up'), WAIT);
    expect([unknown, expired, badHours].some((id) => one('SIMCMD01', 'commandResult', (p) => p.commandId === id))).toBe(false);
    expectProtocol('SIMCMD01');
  });

  it('refuses a command its model lacks (an S1 has no adjustable bin sensor)', async () => {
    await started(virtual('SIMS1001', {}, { termType: 'S1', binCount: 2 }));
    const id = await command('SIMS1001', 'binHeight', { binEmptyHeight: 120, binFullHeight: 30, binAlmostFull: 80, binAlreadyFull: 95 });
    const refusal = await waitOne('SIMS1001', 'commandAck', (p) => p.commandId === id);
    expect(refusal.payload).toMatchObject({ accepted: false, reason: expect.stringMatching(/not supported by model S1/) });
  });

  it('fails the configured share of commands with a reason', async () => {
    await started(virtual('SIMFAIL01', { failureRate: 1 }));
    const id = await command('SIMFAIL01', 'downloadLogs');
    expect((await waitOne('SIMFAIL01', 'commandAck', (p) => p.commandId === id)).payload.accepted).toBe(true);
    const result = await waitOne('SIMFAIL01', 'commandResult', (p) => p.commandId === id);
    expect(result.payload.success).toBe(false);
    expect(result.payload.message).toEqual(expect.any(String));
    expect(one('SIMFAIL01', 'file')).toBeUndefined();
  });

  it('close: result, status Down, goodbye closed, disconnected until it reopens after the delay', async () => {
    // 120 simulated seconds at speed 100: 1.2 s away.
    await started(virtual('SIMCLOSE01', { speed: 100, reopenAfterSeconds: 120 }));
    const close = await command('SIMCLOSE01', 'close');
    const result = await waitOne('SIMCLOSE01', 'commandResult', (p) => p.commandId === close && p.success);
    const down = await waitOne('SIMCLOSE01', 'status', (p) => p.status === 'Down' && p.reason === 'closed');
    const goodbye = await waitOne('SIMCLOSE01', 'goodbye', (p) => p.reason === 'closed');
    expect(result.seq < down.seq && down.seq < goodbye.seq).toBe(true);
    await vi.waitFor(() => expect(broker.connectedIds().has('SIMCLOSE01')).toBe(false), WAIT);
    expect(one('SIMCLOSE01', 'goodbye', (p) => p.reason === 'lost')).toBeUndefined();

    await vi.waitFor(() => expect(broker.of('SIMCLOSE01', 'hello')).toHaveLength(2), WAIT);
    const back = broker.of('SIMCLOSE01', 'hello')[1];
    expect(Date.parse(back.payload.ts) - Date.parse(goodbye.payload.ts)).toBeGreaterThanOrEqual(1100);
    await vi.waitFor(() => expect(broker.of('SIMCLOSE01', 'status').at(-1)!.payload.status).toBe('Up'), WAIT);
    expect(broker.connectedIds().has('SIMCLOSE01')).toBe(true);
  });

  it('a broken connection makes the broker publish the last will (goodbye lost), and the machine comes back', async () => {
    await started(virtual('SIMLOST01', {}));
    broker.kick('SIMLOST01');
    const will = await waitOne('SIMLOST01', 'goodbye');
    expect(will.payload.reason).toBe('lost');
    expect(protocolProblems('goodbye', will.payload)).toEqual([]);
    await vi.waitFor(() => expect(broker.of('SIMLOST01', 'hello')).toHaveLength(2), WAIT);
    // A fresh will per connection: a second loss must not repeat the first one's message id.
    broker.kick('SIMLOST01');
    await vi.waitFor(() => expect(broker.of('SIMLOST01', 'goodbye')).toHaveLength(2), WAIT);
    const [first, second] = broker.of('SIMLOST01', 'goodbye');
    expect(second.payload.id).not.toBe(first.payload.id);
  });

  it('is deterministic with a seed: same machine, same consumers; another seed differs', async () => {
    const run = async (serial: string, seed: string) => {
      const machine = await started(virtual(serial, { seed }, { serialNumber: 'SIMSEED01', termType: 'M5' }));
      for (let i = 0; i < 4; i++) await machine.runSession();
      await machine.stop();
      const strip = ({ id, ts, sessionId, startTime, endTime, ...rest }: Record<string, any>) => rest;
      return broker
        .of('SIMSEED01')
        .filter((m) => m.kind === 'session' || m.kind === 'bins')
        .map((m) => ({ kind: m.kind, ...strip(m.payload) }));
    };
    const before = broker.of('SIMSEED01').length;
    const first = await run('SIMSEED01', 'seed-a');
    broker.messages.splice(before);
    const again = await run('SIMSEED01', 'seed-a');
    broker.messages.splice(before);
    const other = await run('SIMSEED01', 'seed-b');
    expect(first.filter((m) => m.kind === 'session')).toHaveLength(4);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('on autopilot serves consumers along the usage curves and beats', async () => {
    // 5000 sessions a day: even the quietest night hour gives a session every couple of seconds at speed 600.
    await started(virtual('SIMAUTO01', { autopilot: true, speed: 600 }, { sessionsPerDay: 5000 }));
    await vi.waitFor(
      () => {
        expect(broker.of('SIMAUTO01', 'session').length).toBeGreaterThanOrEqual(2);
        expect(broker.of('SIMAUTO01', 'heartbeat').length).toBeGreaterThanOrEqual(2);
      },
      { timeout: 45_000, interval: 50 },
    );
    expectProtocol('SIMAUTO01');
  });
});

describe('fleet', () => {
  it('connects every machine staggered, counts messages and answered commands, and says goodbye on stop', async () => {
    const serials = ['SIMFLT01', 'SIMFLT02', 'SIMFLT03'];
    const provisioned: string[] = [];
    // when each machine is started (its connect begins): the broker's arrival times add each connect's own latency,
    // which on a busy machine can eat the spacing
    const startedAt: number[] = [];
    const start = vi.spyOn(VirtualMachine.prototype, 'start').mockImplementation(function (this: VirtualMachine) {
      startedAt.push(Date.now());
      return originalStart.call(this);
    });
    const called = Date.now();
    const fleet = startFleet({
      machines: serials.map((serial) => profile(serial)),
      provision: async (machine) => {
        provisioned.push(machine.serialNumber);
        return { serialNumber: machine.serialNumber, secret: `fleet-${machine.serialNumber}`, brokerUrl: broker.url };
      },
      seed: 'fleet',
      speed: 1000,
      failureRate: 0,
      autopilot: false,
      connectSpacingMs: 50,
    });
    await vi.waitFor(() => expect(fleet.stats().connected).toBe(3), WAIT);
    expect(provisioned.sort()).toEqual(serials);
    start.mockRestore();
    // the n-th machine's turn is at least n × 50 ms after the fleet started (a timer may fire a millisecond or two early).
    // Not the gaps between starts: a first start late on a busy machine narrows the gap to the next.
    expect(startedAt).toHaveLength(3);
    expect(startedAt[1] - called).toBeGreaterThanOrEqual(48);
    expect(startedAt[2] - called).toBeGreaterThanOrEqual(98);
    expect(
      broker.logins
        .filter((login) => serials.includes(login.clientId))
        .map((login) => login.clientId)
        .sort(),
    ).toEqual(serials);
    const id = await command('SIMFLT02', 'uiCounterReset');
    await waitOne('SIMFLT02', 'commandResult', (p) => p.commandId === id);
    await vi.waitFor(() => expect(fleet.stats().commandsAnswered).toBe(1), WAIT);
    expect(fleet.stats().messagesSent).toBeGreaterThanOrEqual(3 * 3 + 2);
    await fleet.stop();
    for (const serial of serials) expect(one(serial, 'goodbye', (p) => p.reason === 'shutdown')).toBeDefined();
    expect(fleet.stats().connected).toBe(0);
  });

  it('keeps the fleet within its publish budget, dropping heartbeats rather than queueing them', async () => {
    const gate = new PublishGate(50);
    const began = Date.now();
    const granted = await Promise.all(Array.from({ length: 100 }, () => gate.take('session')));
    expect(granted.every(Boolean)).toBe(true);
    // 50 at once (the bucket is full), the other 50 at 50 per second.
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    const backlog = Array.from({ length: 120 }, () => gate.take('bins'));
    expect(await gate.take('heartbeat')).toBe(false);
    gate.release();
    expect((await Promise.all(backlog)).every(Boolean)).toBe(true);
  });
});

describe('usage curves', () => {
  // Hong Kong local time (UTC+8), as the demo fleet lives there.
  const hk = (isoLocal: string) => Date.parse(`${isoLocal}+08:00`);

  it('are quiet at night, peak at lunch and in the evening, and are busier at weekends', () => {
    const wednesday = (hour: string) => sessionsPerHour(10, hk(`2025-06-11T${hour}:30:00`));
    expect(wednesday('03')).toBeLessThan(wednesday('12') / 20);
    expect(wednesday('12')).toBeGreaterThan(wednesday('15'));
    expect(wednesday('18')).toBeGreaterThan(wednesday('15'));
    expect(sessionsPerHour(10, hk('2025-06-14T12:30:00'))).toBeGreaterThan(wednesday('12'));
  });

  it('put a machine to sleep outside its opening hours; 00:00-23:59 never sleeps', () => {
    expect(isSleepTime('07:00', '22:00', hk('2025-06-11T06:59:00'))).toBe(true);
    expect(isSleepTime('07:00', '22:00', hk('2025-06-11T07:00:00'))).toBe(false);
    expect(isSleepTime('07:00', '22:00', hk('2025-06-11T22:00:00'))).toBe(true);
    expect(isSleepTime('00:00', '23:59', hk('2025-06-11T23:59:30'))).toBe(false);
  });
});

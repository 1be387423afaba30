// How many consumers the simulated fleet serves per real minute, at speed 1 and at speed 60, against the
// usage curve (server/seed/vocabulary.ts): fake timers and seeded machines make it deterministic, and the
// MQTT link is replaced by one that is always connected (no broker needed to count sessions).
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../server/simulator/link', () => ({
  MachineLink: class {
    private ready = false;
    constructor(private readonly options: { handlers: { onReady(): void } }) {}
    get connected() {
      return this.ready;
    }
    connect() {
      this.ready = true;
      queueMicrotask(() => this.options.handlers.onReady());
    }
    drop() {
      this.ready = false;
    }
    async goodbye() {
      this.ready = false;
    }
    async publish(kind: string, fields: Record<string, unknown>) {
      return this.ready ? { v: 1, id: `${kind}-${Date.now()}`, ts: new Date().toISOString(), ...fields } : null;
    }
  },
}));

const { VirtualMachine } = await import('../../server/simulator/machine');

// Friday 27 November 2026, 18:00 in Hong Kong (UTC+8): the evening peak hour.
const EVENING = Date.parse('2026-11-27T10:00:00Z');
const MACHINES = 20;
const SESSIONS_PER_DAY = 60;
// By the curve: 60 a day × hour 18's weight 2.4 of 27.56 × Friday's 1.1 = 5.75 an hour per machine,
// 114.9 an hour for twenty (written out here, not computed by the code under test).
const PER_HOUR = 114.9;

afterEach(() => {
  vi.useRealTimers();
});

/** Sessions the fleet sends in `realMinutes` from 18:00 local, per real minute. */
const sessionsPerRealMinute = async (speed: number, realMinutes: number) => {
  vi.useFakeTimers({ now: EVENING });
  const machines = Array.from({ length: MACHINES }, (_, index) => {
    const serialNumber = `SIMRATE${String(index).padStart(3, '0')}`;
    return new VirtualMachine({
      profile: { serialNumber, termType: 'M5', binCount: 2, onTime: '00:00', offTime: '23:59', sessionsPerDay: SESSIONS_PER_DAY },
      credentials: { serialNumber, secret: 'not-used', brokerUrl: 'mqtt://not-used' },
      seed: 'rate-test',
      speed,
      // no faults or outages in the hour: the count is the consumers' alone
      failureRate: 0,
    });
  });
  for (const machine of machines) machine.start();
  await vi.advanceTimersByTimeAsync(realMinutes * 60_000);
  const sessions = machines.reduce((sum, machine) => sum + machine.stats.sessions, 0);
  for (const machine of machines) await machine.stop();
  return sessions / realMinutes;
};

describe('simulated consumers follow the usage curve in real time', () => {
  it("at speed 1 twenty busy machines bring the curve's sessions per real minute in the evening peak", async () => {
    const perMinute = await sessionsPerRealMinute(1, 60);
    // 1.9 a minute expected; a Poisson count of ~115 in the hour stays within ±30 (about 3 deviations)
    expect(perMinute).toBeGreaterThan((PER_HOUR - 30) / 60);
    expect(perMinute).toBeLessThan((PER_HOUR + 30) / 60);
  });

  it('at speed 60 the same hour passes in a real minute: sixty times the sessions per real minute', async () => {
    const perMinute = await sessionsPerRealMinute(60, 1);
    expect(perMinute).toBeGreaterThan(PER_HOUR - 30);
    expect(perMinute).toBeLessThan(PER_HOUR + 30);
  });

  it('the speed changes when consumers come in real time, not how many come in a simulated hour', async () => {
    const atSpeed1 = (await sessionsPerRealMinute(1, 60)) * 60;
    const atSpeed60 = await sessionsPerRealMinute(60, 1);
    expect(atSpeed60).toBe(atSpeed1);
  });
});

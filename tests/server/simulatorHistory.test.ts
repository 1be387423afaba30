// The in-process simulation serves each machine's consumers at the rate of that machine's own history
// (the demo seed's popularity of it), so the live fleet continues what the dashboard shows as its
// average per day; a machine without sessions in the last four weeks draws a rate as the seed does.
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema/fleet';
import { rvmDailyUsage } from '../../server/db/schema/fleetActivity';
import { startInProcessSimulation, type InProcessSimulation } from '../../server/simulator/inProcess';
import { seedSmallFleet } from './fleetHarness';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { describeOneBackend } from './helpers';

const DAY = 86_400_000;
const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);
// Weekday factors of the usage curve (server/seed/vocabulary.ts) average 7.5 / 7.
const WEEKDAY_MEAN = 7.5 / 7;

describeOneBackend(
  "simulated consumers continue each machine's history",
  (server) => {
    let simulation: InProcessSimulation | undefined;
    afterAll(async () => {
      await simulation?.stop();
    });

    it("takes each machine's sessions per day from its last four weeks; one without history draws its own", async () => {
      const token = await server.login();
      const current = await server.call('GET', '/login/current', { token });
      const account = current.body.resData.licenseAccountId as number;
      await seedSmallFleet(server as never, account, { machines: 3, days: 1 });
      const ids = (await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.sts, 'active')).orderBy(asc(rvm.id)).limit(3)).map((row) => row.id);
      await server.db.delete(rvmDailyUsage).where(inArray(rvmDailyUsage.rvmId, ids));
      const usage = (rvmId: number, daysAgo: number, sessions: number) => ({
        rvmId,
        day: utcDay(daysAgo),
        licenseAccountId: account,
        sessions,
        items: sessions,
        accepted: sessions,
        rejected: 0,
        refund: 0,
      });
      await server.db.insert(rvmDailyUsage).values([
        // a busy machine: 70 a day for the last 28 complete days; today and older days do not count
        ...Array.from({ length: 28 }, (_, index) => usage(ids[0], index + 1, 70)),
        usage(ids[0], 0, 5000),
        usage(ids[0], 40, 5000),
        // a machine with sessions only since 2 days ago: 2 days, not 28
        usage(ids[1], 2, 12),
        usage(ids[1], 1, 8),
      ]);

      simulation = await startInProcessSimulation(server.app, { machines: 3, speed: 1, seed: 'history-test' });
      const fleet = simulation.fleet;
      await waitFor(
        async () => fleet.machines.length,
        (count) => count === 3,
        'three virtual machines started',
      );
      const bySerial = new Map(fleet.machines.map((machine) => [machine.serialNumber, machine]));
      const serials = await server.db.select({ id: rvm.id, serialNumber: rvm.serialNumber }).from(rvm).where(inArray(rvm.id, ids));
      const machineOf = (id: number) => bySerial.get(serials.find((row) => row.id === id)!.serialNumber)!;

      expect(machineOf(ids[0]).sessionsPerDay).toBeCloseTo(70 / WEEKDAY_MEAN, 6);
      expect(machineOf(ids[1]).sessionsPerDay).toBeCloseTo(10 / WEEKDAY_MEAN, 6);
      // no history: drawn like the seed's machines (a median of 4.2 a day, at most 60)
      const drawn = machineOf(ids[2]).sessionsPerDay;
      expect(drawn).toBeGreaterThan(0);
      expect(drawn).toBeLessThanOrEqual(60);
      await simulation.stop();
      simulation = undefined;
    });
  },
  { gateway: embeddedGateway() },
);

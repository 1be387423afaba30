// The full fuzz (npm run test:robust): FUZZ_RUNS drawn requests per route (default 100) plus the
// edge cases, on PGlite and on PostgreSQL (DATABASE_URL), reporting how many requests it tried.
// Same properties as the fast variant (tests/server/fuzz.test.ts); FUZZ_SEED replays a run.
import { beforeAll, expect, it, vi } from 'vitest';
import { describeBackends } from '../server/helpers';
import { fuzzRoutes, reportFailures, type FuzzOutcome } from './fuzzCore';
import { apiRoutes } from './routeTable';
import { buildWorld } from './world';

vi.mock('fastify', async (original) => (await import('./routeTable')).recordingFastify(await original()));

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

describeBackends(
  'fuzzing every route, full',
  (server) => {
    let outcome: FuzzOutcome;

    beforeAll(async () => {
      const started = Date.now();
      const world = await buildWorld(server, apiRoutes(), { lacking: false, fleet: { machines: 6, days: 2 } });
      outcome = await fuzzRoutes(server, apiRoutes(), world.home, world.adminId, { runs: RUNS, seed: SEED, shrinkSeconds: 30 });
      console.info(
        `fuzz, full [${server.backend}]: ${outcome.requests} requests tried over ${apiRoutes().length} routes (${RUNS} drawn per route, seed ${SEED}) ` +
          `in ${((Date.now() - started) / 1000).toFixed(0)} s; ${outcome.failures.length} failures`,
      );
    });

    it('tried every route', () => {
      expect(outcome.requests).toBeGreaterThanOrEqual(apiRoutes().length * RUNS);
    });

    it('answers every request with the envelope, no 5xx, no internals, and stores nothing when refusing', () => {
      expect(reportFailures(outcome.failures)).toBe('');
    });
  },
  { config: { maxSessionsPerUser: 1000 } },
);

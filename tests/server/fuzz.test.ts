// Fuzzing every registered route from its own schemas (tests/robust/fuzzCore.ts), a few drawn
// requests per route: wrong types, missing and extra fields, huge and deeply nested values, NUL and
// odd unicode, injection strings, bodies that are not JSON. Never a 5xx, never an internal detail,
// always the envelope with a catalogue code, and a refused call changes no table. The full variant
// (many runs per route) is tests/robust/fuzz.full.test.ts (npm run test:robust).
import { beforeAll, expect, it, vi } from 'vitest';
import { fuzzRoutes, reportFailures, type FuzzOutcome } from '../robust/fuzzCore';
import { apiRoutes } from '../robust/routeTable';
import { buildWorld } from '../robust/world';
import { describeOneBackend } from './helpers';

vi.mock('fastify', async (original) => (await import('../robust/routeTable')).recordingFastify(await original()));

/** Drawn requests per route (the full variant: FUZZ_RUNS, default 200). */
const RUNS = 6;

describeOneBackend(
  'fuzzing every route',
  (server) => {
    let outcome: FuzzOutcome;

    beforeAll(async () => {
      const started = Date.now();
      const world = await buildWorld(server, apiRoutes(), { lacking: false });
      const built = Date.now();
      outcome = await fuzzRoutes(server, apiRoutes(), world.home, world.adminId, { runs: RUNS, shrinkSeconds: 5 });
      console.info(
        `fuzz [${server.backend}]: ${outcome.requests} requests over ${apiRoutes().length} routes in ${((Date.now() - built) / 1000).toFixed(1)} s ` +
          `(set-up ${((built - started) / 1000).toFixed(1)} s), ${outcome.failures.length} failing routes; slowest:`,
        outcome.slowest.slice(0, 8).map(([route, seconds]) => `${route} ${seconds.toFixed(1)} s`),
      );
    }, 600_000);

    it('reached every route', () => {
      expect(apiRoutes().length).toBeGreaterThan(90);
      expect(outcome.requests).toBeGreaterThanOrEqual(apiRoutes().length * RUNS);
    });

    it('answers every drawn request with the envelope, no 5xx, no internals, and stores nothing when refusing', () => {
      expect(reportFailures(outcome.failures)).toBe('');
    });
  },
  // sessions ended by the fuzzer (logout, password reset) are replaced: many per user
  { config: { maxSessionsPerUser: 1000 } },
);

// The full authorization matrix (npm run test:robust), on PGlite and on PostgreSQL (DATABASE_URL):
// every guarded route × no token, malformed, unknown, "Bearer"-prefixed and oversized tokens, idle,
// expired, revoked and superseded sessions, the route's own permission missing, and records of
// another license account — each refused with its code, no table changed. The fast variant is
// tests/server/authzMatrix.test.ts (npm test).
import { beforeAll, expect, it, vi } from 'vitest';
import { describeBackends } from '../server/helpers';
import { FULL_CASES, runMatrix, type MatrixOutcome } from './matrix';
import { apiRoutes } from './routeTable';
import { buildWorld } from './world';

vi.mock('fastify', async (original) => (await import('./routeTable')).recordingFastify(await original()));

describeBackends('authorization matrix, full', (server) => {
  let outcome: MatrixOutcome;

  beforeAll(async () => {
    const started = Date.now();
    const world = await buildWorld(server, apiRoutes(), { fleet: { machines: 6, days: 2 } });
    outcome = await runMatrix(server, world, apiRoutes(), FULL_CASES);
    const guarded = apiRoutes().filter((route) => !route.public).length;
    console.info(
      `authorization matrix, full [${server.backend}]: ${guarded} guarded routes, ${FULL_CASES.length} cases: ${outcome.cells} calls in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      {
        perCase: outcome.perCase,
        foreignCodes: outcome.foreignCodes,
        emptyListings: outcome.emptyListings.length,
        notAddressing: outcome.notAddressing.length,
        notes: outcome.notes,
      },
    );
  });

  it('sent every case to every guarded route it applies to', () => {
    const guarded = apiRoutes().filter((route) => !route.public);
    for (const state of FULL_CASES.filter((name) => name.endsWith('Token'))) expect(outcome.perCase[state], state).toBe(guarded.length);
    expect(outcome.perCase.missingPermission).toBe(guarded.filter((route) => route.permissions.length > 0).length);
    expect(outcome.perCase.foreignRecord).toBeGreaterThan(50);
  });

  it('refused every call with the right code and changed nothing', () => {
    expect(outcome.failures).toEqual([]);
  });
});

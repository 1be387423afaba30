// The authorization matrix over the route table the app really registers (tests/robust/matrix.ts):
// every token-protected route refuses a malformed, unknown, idle, expired and revoked session
// (11012-11015), a user holding every permission but the route's own (4003, aimed at records of the
// caller's own account that the call would otherwise change), and a record of another license
// account addressed by id (refused or not found, never served) — and no table changes. "No token"
// and "no permission at all" are tests/server/routeGuard.test.ts's. Full variant: npm run test:robust.
import { beforeAll, expect, it, vi } from 'vitest';
import { runMatrix, FAST_CASES, type MatrixOutcome } from '../robust/matrix';
import { apiRoutes } from '../robust/routeTable';
import { buildWorld, type World } from '../robust/world';
import { describeOneBackend } from './helpers';

vi.mock('fastify', async (original) => (await import('../robust/routeTable')).recordingFastify(await original()));

describeOneBackend('authorization matrix', (server) => {
  let world: World;
  let outcome: MatrixOutcome;

  beforeAll(async () => {
    const started = Date.now();
    world = await buildWorld(server, apiRoutes());
    const built = Date.now();
    outcome = await runMatrix(server, world, apiRoutes(), FAST_CASES);
    const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
    console.info(
      `authorization matrix [${server.backend}]: ${outcome.cells} calls in ${seconds(built, Date.now())} s (set-up ${seconds(started, built)} s)`,
      outcome.perCase,
      outcome.notes,
    );
  }, 240_000);

  it('covers the whole route table', () => {
    const guarded = apiRoutes().filter((route) => !route.public);
    expect(guarded.length).toBeGreaterThan(80);
    // every token state reached every guarded route; the permission case every route that needs one
    for (const state of ['malformedToken', 'unknownToken', 'idleToken', 'expiredToken', 'revokedToken']) expect(outcome.perCase[state]).toBe(guarded.length);
    expect(outcome.perCase.missingPermission).toBe(guarded.filter((route) => route.permissions.length > 0).length);
    // the routes that address no record of an account are the account-free ones, not the scoped ones
    expect(outcome.perCase.foreignRecord).toBeGreaterThan(50);
    expect(outcome.notAddressing).not.toContain('GET /test-api/user/:id');
    expect(outcome.notAddressing).not.toContain('POST /test-api/rvm/command');
  });

  it('refuses every cell with the right code and changes nothing', () => {
    expect(outcome.failures).toEqual([]);
  });
});

// describeFleet: the backend matrix of helpers.ts (PGlite always, PostgreSQL with DATABASE_URL,
// skipped with a warning otherwise, failing under CI=true) for fleet servers, with the admin's token
// and the admin's license account filled in before the tests run.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFleetServer, type FleetServer } from './fleetHarness';

export interface FleetContext {
  server: FleetServer;
  token: string;
  /** The admin's (current) license account. */
  accountId: number;
}

const DATABASE_URL = process.env.DATABASE_URL?.trim() || undefined;
let warned = false;

export const describeFleet = (title: string, body: (context: FleetContext) => void, setup?: (context: FleetContext) => Promise<void>) => {
  for (const backend of ['pglite', 'postgres'] as const) {
    if (backend === 'postgres' && !DATABASE_URL) {
      const message = 'DATABASE_URL is not set: the PostgreSQL run of the fleet suite is SKIPPED';
      if (process.env.CI === 'true') {
        describe(`${title} [postgres]`, () =>
          it('needs PostgreSQL in CI', () => {
            throw new Error(`${message.replace('is SKIPPED', 'cannot be skipped')} in CI`);
          }));
      } else {
        if (!warned) console.warn(`\n\u26a0  ${message} (set DATABASE_URL=postgres://… to run it).\n`);
        warned = true;
        describe.skip(`${title} [postgres]`, () => body({} as FleetContext));
      }
      continue;
    }
    describe(`${title} [${backend}]`, () => {
      const context = {} as FleetContext;
      beforeAll(async () => {
        context.server = await startFleetServer(backend);
        context.token = await context.server.login();
        const current = await context.server.call('GET', '/login/current', { token: context.token });
        context.accountId = current.body.resData.licenseAccountId;
        await setup?.(context);
      });
      afterAll(async () => {
        await context.server?.close();
      });
      body(context);
    });
  }
};

// describeFleet / describeFleetOneBackend: the backend matrix of helpers.ts (describeMatrix: both backends
// or ONE_BACKEND, docs/test-quality.md "One backend or both") for fleet servers, with the admin's token and
// the admin's license account filled in before the tests run.
import { afterAll, beforeAll } from 'vitest';
import { startFleetServer, type FleetServer } from './fleetHarness';
import { describeMatrix, type BackendScope } from './helpers';

export interface FleetContext {
  server: FleetServer;
  token: string;
  /** The admin's (current) license account. */
  accountId: number;
}

const describeFleetOn = (scope: BackendScope, title: string, body: (context: FleetContext) => void, setup?: (context: FleetContext) => Promise<void>) =>
  describeMatrix(
    scope,
    title,
    (backend) => {
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
    },
    () => body({} as FleetContext),
  );

/** A fleet server on each backend: for behaviour that depends on storage. */
export const describeFleet = (title: string, body: (context: FleetContext) => void, setup?: (context: FleetContext) => Promise<void>) =>
  describeFleetOn('both', title, body, setup);

/** A fleet server on ONE_BACKEND only: for a block whose behaviour does not depend on storage. */
export const describeFleetOneBackend = (title: string, body: (context: FleetContext) => void, setup?: (context: FleetContext) => Promise<void>) =>
  describeFleetOn('one', title, body, setup);

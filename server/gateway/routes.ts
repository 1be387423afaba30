// Operator calls of the machine gateway: a machine's MQTT secret (rotated, shown once), the license
// account's enrollment key for machines not registered yet, and where machines connect.
import { eq } from 'drizzle-orm';
import { callerOf } from '../auth/guard';
import { gatewayEnrollmentKey, rvmCredential } from '../db/schema/liveFleet';
import { recordEvent } from '../audit/record';
import { accountOf, findMachine, fleetRoute, iso, MACHINE_ID, PERMISSIONS } from '../fleet/access';
import { ok } from '../lib/envelope';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { issueCredential, issueEnrollmentKey, SerialTaken } from './credentials';
import { AppError } from '../lib/errors';
import { registerQuarantineRoutes } from './quarantine';

const ID_PARAMS = StrictObject({ id: MACHINE_ID });

export const registerGatewayRoutes = (app: TypedApp, services: Services) => {
  registerQuarantineRoutes(app, services);
  const { db } = services;
  // The audit log's entry (docs/audit-log.md): the machine whose secret, or the license account whose key, was rotated.
  const audit = (request: Parameters<typeof callerOf>[0], action: 'gateway.rotateSecret' | 'gateway.rotateEnrollmentKey', target: { rvmIds?: number[] }) => {
    const { principal } = callerOf(request);
    const account = accountOf(callerOf(request));
    const [resource, recordId] = target.rvmIds ? ['machine', target.rvmIds[0]] : ['account', account];
    return recordEvent(db, { licenseAccountId: account, userId: principal.userId, userName: principal.userName, action, resource, recordId, target, outcome: 'done' });
  };

  app.get(
    '/rvm/:id/credential',
    fleetRoute('gateway', "A machine's gateway connection: whether it has a secret, when it was rotated, where it connects", [PERMISSIONS.overview], { params: ID_PARAMS }),
    async (request) => {
      const machine = await findMachine(db, callerOf(request), request.params.id);
      const [credential] = await db.select().from(rvmCredential).where(eq(rvmCredential.rvmId, machine.id)).limit(1);
      return ok(request, {
        serialNumber: machine.serialNumber,
        hasSecret: Boolean(credential && credential.serialNumber === machine.serialNumber),
        rotatedTime: iso(credential?.rotatedTime),
        machineUrl: services.gateway.machineUrl,
        online: machine.online,
        lastSeenTime: iso(machine.lastSeenTime),
      });
    },
  );

  app.post(
    '/rvm/:id/credential',
    fleetRoute('gateway', "Creates or rotates a machine's gateway secret; the answer is the only time it is shown", [PERMISSIONS.machineEdit], { params: ID_PARAMS }),
    async (request) => {
      const caller = callerOf(request);
      const machine = await findMachine(db, caller, request.params.id);
      const secret = await issueCredential(db, machine, caller.principal.userId).catch((error: unknown) => {
        // Another account's machine holds this serial number's credential: never taken over.
        if (error instanceof SerialTaken) throw new AppError('2002');
        throw error;
      });
      await audit(request, 'gateway.rotateSecret', { rvmIds: [machine.id] });
      return ok(request, { serialNumber: machine.serialNumber, secret, machineUrl: services.gateway.machineUrl });
    },
  );

  app.get('/gateway', fleetRoute('gateway', 'Where machines connect, and whether the license account has an enrollment key', [PERMISSIONS.fleetPage], {}), async (request) => {
    const [key] = await db
      .select()
      .from(gatewayEnrollmentKey)
      .where(eq(gatewayEnrollmentKey.licenseAccountId, accountOf(callerOf(request))))
      .limit(1);
    return ok(request, { machineUrl: services.gateway.machineUrl, connected: services.gateway.connected, enrollmentKeyRotatedTime: iso(key?.rotatedTime) });
  });

  app.post(
    '/gateway/enrollment-key',
    fleetRoute(
      'gateway',
      "Creates or rotates the license account's enrollment key (shown once): machines not registered yet connect with it and wait in the quarantine",
      [PERMISSIONS.machineEdit],
      {},
    ),
    async (request) => {
      const caller = callerOf(request);
      const key = await issueEnrollmentKey(db, accountOf(caller), caller.principal.userId);
      await audit(request, 'gateway.rotateEnrollmentKey', {});
      return ok(request, { enrollmentKey: key, machineUrl: services.gateway.machineUrl });
    },
  );
};

// Vendor connect of the in-process simulation (vendorConnect.ts): each call goes through this server's own
// route (app.inject: the same authentication, signing and recording as a machine's HTTP call), and a machine
// asks only while the database binds it to an enabled vendorConnect app (checked at most every BOUND_CHECK_MS).
import type { FastifyInstance } from 'fastify';
import { hasVendorApp } from '../hookups/vendor';
import { cachedCheck, VENDOR_CONNECT_PATH, VendorConnectClient } from './vendorConnect';

export const inProcessVendorConnect = (app: FastifyInstance, machineIds: ReadonlyMap<string, number>, log?: (line: string) => void) =>
  new VendorConnectClient({
    transport: async (authorization, request) => {
      const answer = await app.inject({ method: 'POST', url: VENDOR_CONNECT_PATH, headers: { authorization }, payload: request });
      const envelope = answer.json<{ resCode?: string; resData?: unknown }>();
      return { status: answer.statusCode, resCode: String(envelope.resCode ?? ''), resData: envelope.resData };
    },
    isBound: cachedCheck(async (serialNumber) => {
      const id = machineIds.get(serialNumber);
      return id !== undefined && (await hasVendorApp(app.services.db, id));
    }),
    log,
  });

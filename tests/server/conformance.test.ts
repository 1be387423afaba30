// The conformance check firmware teams run (npm run machine:check) against a real server: every message
// kind applied, each usual mistake quarantined with its reason, read back through the API.
import { expect, it } from 'vitest';
import { CASES, formatResults, runConformance } from '../../server/simulator/conformance';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { rvm } from '../../server/db/schema/fleet';
import { seedSmallFleet } from './fleetHarness';
import { embeddedGateway, provisionMachine } from './gatewayHarness';
import { describeOneBackend } from './helpers';
import { eq, like } from 'drizzle-orm';

describeOneBackend(
  'machine conformance check',
  (server) => {
    it('reports every kind applied and every mistake quarantined with the reason the protocol names', async () => {
      const token = await server.login();
      const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      await seedSmallFleet(server as never, account, { machines: 1, days: 1 });
      const [machine] = await server.db.select({ id: rvm.id }).from(rvm).limit(1);
      const { serial, secret } = await provisionMachine(server.db, machine.id);
      const apiUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const results = await runConformance({ mqttUrl: server.app.services.gateway.machineUrl!, serial, secret, apiUrl, token });
      expect(results.map((result) => [result.name, result.outcome])).toEqual(CASES.map((check) => [check.name, check.expected]));
      expect(formatResults(results)).toMatch(new RegExp(`conformance: ${CASES.length} passed, 0 failed$`));
      // "applied" is read from the quarantine: the session must really be stored.
      expect(await server.db.select().from(consumerSession).where(like(consumerSession.externalId, 'check-%'))).toHaveLength(1);
      expect((await server.db.select().from(rvm).where(eq(rvm.id, machine.id)))[0].softwareVersion).toBe('check-1.0');
    });
  },
  { gateway: embeddedGateway() },
);

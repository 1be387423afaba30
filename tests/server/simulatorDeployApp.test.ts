// Deployments end to end: the real server (its API, rollout job, embedded MQTT gateway, signed package
// download with Range requests) and the simulator's machines (docs/deployments.md, "Simulator"). A rollout
// to the in-process fleet is downloaded (every download cut once and resumed), applied and recorded with
// the new version; the failure modes end as the matching delivery statuses; a bad package makes the
// updated machine fail the business gate's reject-rate rule.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq, inArray, notInArray } from 'drizzle-orm';
import { afterAll, expect, it, vi } from 'vitest';
import { deployment, deploymentPackage, deploymentTarget } from '../../server/db/schema/deployments';
import { uploadedFile } from '../../server/db/schema/files';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { measureGate } from '../../server/deployments/gate';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { issueCredential } from '../../server/gateway/credentials';
import { APPLY_FAILURE_REASONS, type DeployFaults } from '../../server/simulator/deploy';
import { startInProcessSimulation, type InProcessSimulation } from '../../server/simulator/inProcess';
import { VirtualMachine } from '../../server/simulator/machine';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { reservePort } from '../robust/childServer';
import { describeOneBackend } from './helpers';

/** The download URLs name the server's address, so it listens on a port known before it is built. */
// held until the server listens (reservePort: a port merely found free can be taken meanwhile)
const reserved = await reservePort();
const port = reserved.port;
const WAIT = { timeout: 30_000, interval: 100 };

describeOneBackend(
  'deployments to simulated machines',
  (server) => {
    let simulation: InProcessSimulation | undefined;
    const machines: VirtualMachine[] = [];
    let account = 0;
    let token = '';
    let rows: Array<typeof rvm.$inferSelect> = [];
    afterAll(async () => {
      await reserved.release();
      await simulation?.stop();
      await Promise.all(machines.map((machine) => machine.stop()));
    });

    /** A package with real bytes in the file storage. */
    const createPackage = async (name: string, resourceType: string, version: string, size: number) => {
      const bytes = randomBytes(size);
      const storageKey = `test/${name}-${Date.now()}`;
      await server.app.services.fileStorage!.put(storageKey, Readable.from([bytes]));
      const [file] = await server.db
        .insert(uploadedFile)
        .values({
          licenseAccountId: account,
          name: `${name}.bin`,
          mimeType: 'application/octet-stream',
          size,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          storageKey,
        })
        .returning({ id: uploadedFile.id });
      const [row] = await server.db
        .insert(deploymentPackage)
        .values({ licenseAccountId: account, name, resourceType, version, adaptedModels: 'H30', file: file.id })
        .returning({ id: deploymentPackage.id });
      return row.id;
    };

    /** Creates the deployment through the API; the rollout job and the gateway's delivery job send it to the machines online. */
    const deploy = async (packageId: number, machineIds: number[]) => {
      const created = await server.call('POST', '/deployment', { token, body: { packageId, targets: { machineIds }, waves: [100] } });
      expect(created.body.resCode, created.body.resMsg).toBe('00000');
      await server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
      await server.app.services.jobs.runNow('gatewayDeliverPackages');
      return created.body.resData.id as number;
    };
    const targets = (deploymentId: number) => server.db.select().from(deploymentTarget).where(eq(deploymentTarget.deploymentId, deploymentId)).orderBy(deploymentTarget.rvmId);
    const finished = (deploymentId: number, count: number) =>
      waitFor(
        () => targets(deploymentId),
        (found) => found.length === count && found.every((target) => !['toBeIssued', 'issued', 'inProcess'].includes(target.status)),
        'every delivery finished',
      );

    /** A virtual machine of one of the rows, connected to the server's gateway, with its own failure modes. */
    const virtual = async (row: typeof rvm.$inferSelect, deployFaults: Partial<DeployFaults> = {}) => {
      const secret = await issueCredential(server.db, row, null);
      const machine = new VirtualMachine({
        profile: { serialNumber: row.serialNumber, termType: row.termType, binCount: 2, softwareVersion: row.softwareVersion, sessionsPerDay: 40 },
        credentials: { serialNumber: row.serialNumber, secret, brokerUrl: server.app.services.gateway.machineUrl! },
        seed: 'deploy-app',
        speed: 1000,
        failureRate: 0,
        autopilot: false,
        deployFaults,
      });
      machines.push(machine);
      machine.start();
      await waitFor(
        async () => (await server.db.select({ online: rvm.online }).from(rvm).where(eq(rvm.id, row.id)))[0],
        (found) => found.online,
        `${row.serialNumber} online`,
      );
      return machine;
    };

    it('a rollout to the in-process fleet: each download cut once and resumed by Range, applied, its version recorded', async () => {
      await reserved.release();
      await server.app.listen({ port, host: '127.0.0.1' });
      token = await server.login();
      account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      const [root] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Simulated deployments', level: 1 }).returning({ id: fleet.id });
      rows = await server.db
        .insert(rvm)
        .values(
          ['A', 'B', 'C', 'D'].map((letter) => ({
            licenseAccountId: account,
            fleetId: root.id,
            termNo: `SD${letter}`,
            serialNumber: `SIMD-${letter}`,
            termType: 'H30',
            binCount: 2,
            softwareVersion: '5.0.0',
          })),
        )
        .returning();
      rows.sort((a, b) => a.id - b.id);
      // the simulation takes the first active machines: these
      await server.db
        .update(rvm)
        .set({ sts: 'inactive' })
        .where(
          notInArray(
            rvm.id,
            rows.map((row) => row.id),
          ),
        );

      simulation = await startInProcessSimulation(server.app, { machines: 3, speed: 100, seed: 'deploy-app', failureRate: 0, deployFaults: { broken: 1 } });
      const fleetRows = rows.slice(0, 3);
      await waitFor(
        () =>
          server.db
            .select()
            .from(rvm)
            .where(
              inArray(
                rvm.id,
                fleetRows.map((row) => row.id),
              ),
            ),
        (found) => found.every((row) => row.online),
        'simulated machines online',
      );

      const packageId = await createPackage('core', 'software', '7.0.0', 2_000_000);
      const deploymentId = await deploy(
        packageId,
        fleetRows.map((row) => row.id),
      );
      const done = await finished(deploymentId, 3);
      expect(done.map((target) => [target.status, target.reportedVersion])).toEqual(Array(3).fill(['applied', '7.0.0']));
      // each machine was cut part-way and asked the server for the rest only (a 206 at its offset)
      expect(simulation.fleet.stats()).toMatchObject({ deploysReceived: 3, deploysApplied: 3, downloadResumes: 3 });
      const versions = await server.db
        .select({ softwareVersion: rvm.softwareVersion })
        .from(rvm)
        .where(
          inArray(
            rvm.id,
            fleetRows.map((row) => row.id),
          ),
        );
      expect(versions.map((row) => row.softwareVersion)).toEqual(Array(3).fill('7.0.0'));
      expect(simulation.fleet.machines.map((machine) => machine.installed.software)).toEqual(Array(3).fill('7.0.0'));
      await simulation.stop();
      simulation = undefined;
    });

    it("failure modes end as receiveFailed and applyFailed with the machine's reason; a silent machine leaves its delivery issued", async () => {
      const [corrupting, failing, silent] = [await virtual(rows[0], { checksum: 1 }), await virtual(rows[1], { applyFailure: 1 }), await virtual(rows[2], { silent: 1 })];
      const packageId = await createPackage('settings', 'configuration', 'cfg-2', 300_000);
      const deploymentId = await deploy(packageId, [rows[0].id, rows[1].id]);
      const [checksum, apply] = await finished(deploymentId, 2);
      expect(checksum).toMatchObject({ status: 'receiveFailed', statusReason: expect.stringMatching(/^SHA-256 [0-9a-f]{64} does not match$/) });
      expect(apply.status).toBe('applyFailed');
      expect(APPLY_FAILURE_REASONS).toContain(apply.statusReason);
      expect(corrupting.installed.versions.get('configuration')).toBeUndefined();
      expect(failing.installed.versions.get('configuration')).toBeUndefined();

      const quiet = await deploy(await createPackage('quiet', 'configuration', 'cfg-3', 1000), [rows[2].id]);
      await vi.waitFor(() => expect(silent.stats.deploysReceived).toBe(1), WAIT);
      // a later message of the machine is processed after anything the delivery could have caused
      const session = await silent.runSession();
      await waitFor(
        () =>
          server.db
            .select()
            .from(consumerSession)
            .where(eq(consumerSession.externalId, session!.sessionId as string)),
        (found) => found.length === 1,
        'the session stored',
      );
      expect((await targets(quiet)).map((target) => target.status)).toEqual(['issued']);
    });

    it('a bad package: the updated machine rejects so much more that the business gate fails on the reject rate', async () => {
      const updated = await virtual(rows[3]);
      const other = machines[2];
      const deploymentId = await deploy(await createPackage('recogniser', 'ai', '2.0-bad', 5000), [rows[3].id]);
      expect((await finished(deploymentId, 1))[0]).toMatchObject({ status: 'applied', reportedVersion: '2.0-bad' });
      expect(updated.installed.degraded).toBe(true);
      // applied long enough ago to count as updated
      await server.db
        .update(deploymentTarget)
        .set({ finishedTime: new Date(Date.now() - 20 * 60_000) })
        .where(eq(deploymentTarget.deploymentId, deploymentId));
      for (const machine of [updated, other]) {
        for (const bin of machine.bins) bin.count = 0;
        for (let i = 0; i < 25; i++) await machine.runSession();
      }
      const config = { windowMinutes: 10, maxRejectRateIncrease: 10, maxSessionsDrop: 90 };
      const [row] = await server.db.select().from(deployment).where(eq(deployment.id, deploymentId));
      const gate = await waitFor(
        () => measureGate(server.db, row, config, new Date(Date.now() - 10 * 60_000), new Date()),
        (result) => result.updated.sessions >= 25 && result.others.sessions >= 25,
        'the sessions stored',
      );
      expect(gate).toMatchObject({ verdict: 'fail', rule: 'rejectRate' });
      expect(gate.rejectRateIncrease).toBeGreaterThan(20);
    });
  },
  { gateway: { ...embeddedGateway(), apiBase: `http://127.0.0.1:${port}/test-api` } },
);

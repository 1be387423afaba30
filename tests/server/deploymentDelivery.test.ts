// Packages and their delivery to machines (docs/deployments.md) over real MQTT through the embedded
// broker: the package's upload status, last editor and the rules while it is deployed, the deploy message
// after hello and from the job, every delivery status driven by the machine's deployStatus messages, a
// finished delivery that never moves, one publication per claim with two claimers, the deadlines, the
// version history and the versions screens' answers. PGlite and PostgreSQL.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sysPermission } from '../../server/db/schema';
import { deployment, deploymentTarget, rvmVersionHistory } from '../../server/db/schema/deployments';
import { fleet as fleetTable, rvm } from '../../server/db/schema/fleet';
import { quarantineMessage } from '../../server/db/schema/quarantine';
import { applyDeliveryDeadlines, claimDeliveries } from '../../server/deployments/delivery';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { ageDelivery, connectDeployMachine, insertDeployment, setUpDeliveryFleet, targetRow, uploadPackage, type DeliveryFleet, type DeployMachine } from './deliveryHarness';
import { accountNamed } from './fleetHarness';
import { embeddedGateway, machineRow, waitFor } from './gatewayHarness';
import { describeBackends } from './helpers';

describeBackends(
  'package delivery',
  (server) => {
    let fleet: DeliveryFleet;
    let url: string;
    const connected: DeployMachine[] = [];

    beforeAll(async () => {
      fleet = await setUpDeliveryFleet(server, 8);
      url = server.app.services.gateway.machineUrl!;
      await waitFor(async () => server.app.services.gateway.connected, Boolean, 'gateway connected');
    });
    afterAll(async () => {
      await Promise.all(connected.map((machine) => machine.close().catch(() => undefined)));
    });

    /** Machine `index` of the fleet connected and said hello (online). */
    const online = async (index: number, hello: Record<string, unknown> = {}) => {
      const { id, serial, secret } = fleet.machines[index];
      const machine = await connectDeployMachine(url, serial, secret, id);
      connected.push(machine);
      await machine.send('hello', hello);
      await waitFor(
        () => machineRow(server.db, id),
        (row) => row.online,
        `machine ${index} online`,
      );
      return machine;
    };
    const statusOf = async (deployId: number) => (await targetRow(server, deployId)).status;
    const userWith = async (name: string, identifiers: string[]) => {
      const ids = (await server.db.select({ id: sysPermission.id }).from(sysPermission).where(inArray(sysPermission.identifier, identifiers))).map((row) => row.id);
      const role = await server.call('POST', '/role', { token: fleet.token, body: { name: `role ${name}`, permissions: ids } });
      await server.createUser({ name, roles: [role.body.resData.id] }, fleet.token);
      return server.login(name, 'Passw0rd!');
    };

    it('a package shows its upload status, creator and last editor; while deployed its file cannot change and it cannot be deleted', async () => {
      const uploaded = await uploadPackage(server, fleet.token, { name: 'core A' });
      const me = (await server.call('GET', '/login/current', { token: fleet.token })).body.resData.userId;
      const shown = await server.call('GET', `/package/${uploaded.id}`, { token: fleet.token });
      expect(shown.body.resData).toMatchObject({ uploadStatus: 'uploaded', file: uploaded.fileId, creator: me, lastEditor: me, resourceType: 'software' });
      // a package created before its file is stored: not uploaded (a deployment of it answers 8100)
      const bare = await server.call('POST', '/package', { token: fleet.token, body: { name: 'core bare', resourceType: 'software', version: '2.0.1', adaptedModels: 'H30' } });
      expect(bare.body.resData.uploadStatus).toBe('notUploaded');
      const listed = await server.call('POST', '/package/page', { token: fleet.token, body: { pageNum: 1, pageSize: 50, uploadStatus: 'notUploaded' } });
      expect(listed.body.resData.list.map((row: { id: number }) => row.id)).toEqual([bare.body.resData.id]);
      expect(
        (await server.call('POST', '/package', { token: fleet.token, body: { name: 'bad', resourceType: 'firmware', version: '1 0', adaptedModels: 'H30' } })).body.resCode,
      ).toMatch(/^100[1-4]$/);

      const editor = await userWith('pkgedit', ['deploymentPackage:page', 'deploymentPackage:edit', 'deploymentPackage:delete']);
      const edited = await server.call('PUT', '/package', { token: editor, body: { id: uploaded.id, description: 'first wave' } });
      expect(edited.body.resCode).toBe('00000');
      const after = (await server.call('GET', `/package/${uploaded.id}`, { token: fleet.token })).body.resData;
      expect(after.lastEditor).not.toBe(me);
      expect(after.creator).toBe(me);
      expect(Date.parse(after.updateTime)).toBeGreaterThanOrEqual(Date.parse(shown.body.resData.updateTime));

      const other = await uploadPackage(server, fleet.token, { name: 'core B' });
      const running = await insertDeployment(server, fleet.account, uploaded.id, [fleet.machines[7].id], { status: 'paused' });
      const replaced = await server.call('PUT', '/package', { token: editor, body: { id: uploaded.id, file: other.fileId } });
      expect(replaced.body.resCode).toBe('8101');
      expect(replaced.body.resData).toMatchObject({ deploymentId: running.id, fields: ['file'] });
      expect((await server.call('PUT', '/package', { token: editor, body: { id: uploaded.id, version: '2.0.9' } })).body.resCode).toBe('8101');
      const refused = await server.call('DELETE', `/package?id=${uploaded.id}`, { token: editor });
      expect(refused.body.resCode).toBe('5002');
      expect(refused.status).toBe(400);
      // the engine's delete check names the deployments (resources/deployment.ts packageId, onDelete restrict)
      expect(refused.body.resData.issues).toEqual([expect.objectContaining({ field: 'deployment' })]);
      expect((await server.call('GET', `/package/${uploaded.id}`, { token: fleet.token })).body.resData.file).toBe(uploaded.fileId);
      // once the deployment has ended the file may change; the package stays while a deployment names it
      await server.db.update(deployment).set({ status: 'completed' }).where(eq(deployment.id, running.id));
      expect((await server.call('PUT', '/package', { token: editor, body: { id: uploaded.id, file: other.fileId } })).body.resCode).toBe('00000');
      expect((await server.call('DELETE', `/package?id=${uploaded.id}`, { token: editor })).body.resCode).toBe('5002');
      await server.db.delete(deployment).where(eq(deployment.id, running.id));
      expect((await server.call('DELETE', `/package?id=${uploaded.id}`, { token: editor })).body.resCode).toBe('00000');
    });

    it('sends the deploy message after hello with a signed URL, size and SHA-256; later waves and paused deployments wait', async () => {
      const item = await uploadPackage(server, fleet.token, { name: 'core 2.1', version: '2.1.0' });
      const rvmId = fleet.machines[0].id;
      const now = await insertDeployment(server, fleet.account, item.id, [rvmId], { answerWithinHours: 6 });
      const paused = await insertDeployment(server, fleet.account, item.id, [rvmId], { status: 'paused' });
      const later = await insertDeployment(server, fleet.account, item.id, [rvmId], { waves: [2] });
      const deployId = now.targetOf.get(rvmId)!;
      const machine = await online(0);
      await waitFor(
        async () => machine.deploys.length,
        (n) => n === 1,
        'deploy message',
      );
      const [message] = machine.deploys;
      expect(message).toMatchObject({ v: 1, deployId, resourceType: 'software', name: 'core 2.1', version: '2.1.0', size: item.bytes.length, sha256: item.sha256 });
      expect(message.url).toMatch(new RegExp(`^${server.app.services.config.publicUrl}/test-api/gateway/package/${deployId}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      expect(Math.abs(Date.parse(message.expiresAt) - Date.now() - 6 * 3_600_000)).toBeLessThan(60_000);
      expect(message.activateAt).toBeUndefined();
      expect(await targetRow(server, deployId)).toMatchObject({ status: 'issued', attempts: 1 });
      expect(await statusOf(paused.targetOf.get(rvmId)!)).toBe('toBeIssued');
      expect(await statusOf(later.targetOf.get(rvmId)!)).toBe('toBeIssued');
      // the rollout starts wave 2: the job sends it to the machine, online all along
      await server.db.update(deployment).set({ currentWave: 2 }).where(eq(deployment.id, later.id));
      await server.app.services.jobs.runNow('gatewayDeliverPackages');
      await waitFor(
        async () => machine.deploys.length,
        (n) => n === 2,
        'second wave delivered',
      );
      expect(machine.deploys[1].deployId).toBe(later.targetOf.get(rvmId));
      // reconnecting before answering: sent again under the same deployId (the machine ignores it)
      await machine.send('hello', {});
      await waitFor(
        async () => machine.deploys.length,
        (n) => n === 4,
        'unanswered deliveries sent again',
      );
      expect(
        machine.deploys
          .slice(2)
          .map((entry) => entry.deployId)
          .sort(),
      ).toEqual([deployId, later.targetOf.get(rvmId)].sort());
      expect((await targetRow(server, deployId)).attempts).toBe(2);
    });

    it('moves deliveries through every status the machine reports; a finished one never moves; a report that ends a delivery asks for the rollout check', async () => {
      // the gateway asks the job runner for the rollout job `soon` after committing a report that ended a delivery (docs/deployments.md "Waves")
      const soon = vi.spyOn(server.app.services.jobs, 'soon');
      const checksAsked = () => soon.mock.calls.filter(([name]) => name === DEPLOYMENTS_JOB).length;
      const item = await uploadPackage(server, fleet.token, { name: 'core 2.2', version: '2.2.0' });
      const [first, second] = [fleet.machines[1].id, fleet.machines[2].id];
      const deployments = [];
      for (let index = 0; index < 4; index++) deployments.push(await insertDeployment(server, fleet.account, item.id, [first]));
      const [applied, failed, broken, corrupt] = deployments.map((entry) => entry.targetOf.get(first)!);
      const others = await insertDeployment(server, fleet.account, item.id, [second]);
      const machine = await online(1);
      await waitFor(
        async () => machine.deploys.length,
        (n) => n === 4,
        'four deliveries',
      );

      await machine.send('deployStatus', { deployId: applied, state: 'received' });
      const received = await targetRow(server, applied);
      expect(received.status).toBe('inProcess');
      expect(received.receivedTime).not.toBeNull();
      await machine.send('deployStatus', { deployId: applied, state: 'applying' });
      expect(await statusOf(applied)).toBe('inProcess');
      expect(checksAsked()).toBe(0);
      await machine.send('deployStatus', { deployId: applied, state: 'applied', version: '2.2.0' });
      expect(checksAsked()).toBe(1);
      expect(await targetRow(server, applied)).toMatchObject({ status: 'applied', reportedVersion: '2.2.0', statusReason: null });
      expect((await targetRow(server, applied)).finishedTime).not.toBeNull();
      expect((await machineRow(server.db, first)).softwareVersion).toBe('2.2.0');
      const history = await server.db.select().from(rvmVersionHistory).where(eq(rvmVersionHistory.rvmId, first));
      expect(history).toEqual([
        expect.objectContaining({ resourceType: 'software', version: '2.2.0', previousVersion: '1.0.0', source: 'deployment', deploymentTargetId: applied }),
      ]);
      // finished: later reports (new message ids) change nothing
      await machine.send('deployStatus', { deployId: applied, state: 'failed', reason: 'late' });
      await machine.send('deployStatus', { deployId: applied, state: 'received' });
      expect(await targetRow(server, applied)).toMatchObject({ status: 'applied', statusReason: null });
      expect(checksAsked()).toBe(1);

      await machine.send('deployStatus', { deployId: failed, state: 'applying' });
      await machine.send('deployStatus', { deployId: failed, state: 'failed', reason: 'disk full' });
      expect(await targetRow(server, failed)).toMatchObject({ status: 'applyFailed', statusReason: 'disk full' });
      await machine.send('deployStatus', { deployId: broken, state: 'downloadFailed' });
      expect(await targetRow(server, broken)).toMatchObject({ status: 'receiveFailed', statusReason: 'downloadFailed' });
      await machine.send('deployStatus', { deployId: corrupt, state: 'checksumFailed', reason: 'sha256 mismatch' });
      expect(await targetRow(server, corrupt)).toMatchObject({ status: 'receiveFailed', statusReason: 'sha256 mismatch' });
      await machine.send('deployStatus', { deployId: corrupt, state: 'applied', version: '2.2.0' });
      expect(await statusOf(corrupt)).toBe('receiveFailed');
      expect(checksAsked()).toBe(4); // applied, failed, downloadFailed, checksumFailed

      // another machine's delivery and an unknown one: nothing changes, nothing is quarantined
      const foreign = others.targetOf.get(second)!;
      await machine.send('deployStatus', { deployId: foreign, state: 'applied', version: '2.2.0' });
      await machine.send('deployStatus', { deployId: 987654321, state: 'received' });
      expect(await statusOf(foreign)).toBe('toBeIssued');
      expect(checksAsked()).toBe(4);
      soon.mockRestore();
      expect(await server.db.select().from(quarantineMessage).where(eq(quarantineMessage.causedBy, machine.serial))).toEqual([]);
      // a malformed report is quarantined like any bad message
      await machine.send('deployStatus', { deployId: applied, state: 'exploded' });
      await waitFor(
        () => server.db.select().from(quarantineMessage).where(eq(quarantineMessage.causedBy, machine.serial)),
        (rows) => rows.length === 1,
        'quarantined',
      );
    });

    it('publishes a delivery once per claim, however many claimers run at once', async () => {
      const item = await uploadPackage(server, fleet.token, { name: 'core 2.3', version: '2.3.0' });
      const machine = await online(3);
      const rvmId = fleet.machines[3].id;
      const single = await insertDeployment(server, fleet.account, item.id, [rvmId]);
      await Promise.all([server.app.services.gateway.deliverPending(rvmId), server.app.services.gateway.deliverPending(rvmId), server.app.services.gateway.deliverPending(rvmId)]);
      await waitFor(
        async () => machine.deploys.length,
        (n) => n >= 1,
        'deploy message',
      );
      expect(await targetRow(server, single.targetOf.get(rvmId)!)).toMatchObject({ status: 'issued', attempts: 1 });
      // the claim itself, from two instances at once (the gateway's and a second server's)
      const other = await server.anotherInstance();
      const many = await insertDeployment(server, fleet.account, item.id, [rvmId]);
      const base = 'http://example.test/test-api';
      const claims = await Promise.all([claimDeliveries(server.db, rvmId, base), claimDeliveries(other.services.db, rvmId, base), claimDeliveries(server.db, rvmId, base)]);
      expect(claims.flat().map((message) => message.deployId)).toEqual([many.targetOf.get(rvmId)]);
      expect(machine.deploys.map((message) => message.deployId)).toEqual([single.targetOf.get(rvmId)]);
    });

    it('turns silence into noFeedback and taskOverdue at the deadlines; finished deliveries keep their status', async () => {
      const item = await uploadPackage(server, fleet.token, { name: 'core 2.4', version: '2.4.0' });
      const ids = fleet.machines.slice(4, 8).map((machine) => machine.id);
      const live = await insertDeployment(server, fleet.account, item.id, ids, { answerWithinHours: 24 });
      const [silent, slow, recent, done] = ids.map((id) => live.targetOf.get(id)!);
      await server.db
        .update(deploymentTarget)
        .set({ status: 'issued', issuedTime: new Date() })
        .where(inArray(deploymentTarget.id, [silent, recent]));
      await server.db.update(deploymentTarget).set({ status: 'inProcess', issuedTime: new Date() }).where(eq(deploymentTarget.id, slow));
      await server.db.update(deploymentTarget).set({ status: 'applied', issuedTime: new Date(), finishedTime: new Date() }).where(eq(deploymentTarget.id, done));
      for (const id of [silent, slow, done]) await ageDelivery(server, id, 25);
      await ageDelivery(server, recent, 23);
      const expired = await insertDeployment(server, fleet.account, item.id, [ids[0]], { expiresInHours: -1 });
      const neverSent = expired.targetOf.get(ids[0])!;

      expect(await applyDeliveryDeadlines(server.db, new Date())).toBe(3);
      expect(await targetRow(server, silent)).toMatchObject({ status: 'noFeedback', statusReason: 'noAnswer' });
      expect(await targetRow(server, slow)).toMatchObject({ status: 'taskOverdue', statusReason: 'overdue' });
      expect(await targetRow(server, neverSent)).toMatchObject({ status: 'noFeedback', statusReason: 'expired' });
      expect(await statusOf(recent)).toBe('issued');
      expect(await statusOf(done)).toBe('applied');
      expect((await targetRow(server, silent)).finishedTime).not.toBeNull();
      // run again (or on another instance): nothing left to move
      expect(await applyDeliveryDeadlines(server.db, new Date())).toBe(0);
      // a deadline passed: the machine's late answer changes nothing
      const machine = await online(4);
      await machine.send('deployStatus', { deployId: silent, state: 'applied', version: '2.4.0' });
      expect(await statusOf(silent)).toBe('noFeedback');
      expect((await machineRow(server.db, ids[0])).softwareVersion).toBe('1.0.0');
    });

    it('keeps the version history from hello and from applied packages; the versions screens count them', async () => {
      const [behind, current] = [fleet.machines[5], fleet.machines[6]];
      await server.db
        .update(rvm)
        .set({ termType: 'V9', softwareVersion: '3.0' })
        .where(inArray(rvm.id, [behind.id, current.id]));
      const machine = await online(6, { softwareVersion: '3.0' });
      expect(await server.db.select().from(rvmVersionHistory).where(eq(rvmVersionHistory.rvmId, current.id))).toEqual([]);
      await machine.send('hello', { softwareVersion: '3.1' });
      const [fromHello] = await waitFor(
        () => server.db.select().from(rvmVersionHistory).where(eq(rvmVersionHistory.rvmId, current.id)),
        (rows) => rows.length === 1,
        'history from hello',
      );
      expect(fromHello).toMatchObject({ resourceType: 'software', version: '3.1', previousVersion: '3.0', source: 'hello', deploymentTargetId: null });
      expect((await machineRow(server.db, current.id)).softwareVersion).toBe('3.1');

      const software = await uploadPackage(server, fleet.token, { name: 'v9 core', version: '3.1', adaptedModels: 'V9, H30' });
      const failedRun = await insertDeployment(server, fleet.account, software.id, [behind.id]);
      await server.db
        .update(deploymentTarget)
        .set({ status: 'applyFailed' })
        .where(eq(deploymentTarget.id, failedRun.targetOf.get(behind.id)!));
      const ai = await uploadPackage(server, fleet.token, { name: 'v9 vision', resourceType: 'ai', version: 'm7', adaptedModels: 'V9' });
      const aiRun = await insertDeployment(server, fleet.account, ai.id, [current.id]);
      const aiDelivery = aiRun.targetOf.get(current.id)!;
      await server.app.services.gateway.deliverPending(current.id);
      await waitFor(async () => machine.deploys.some((message) => message.deployId === aiDelivery), Boolean, 'AI package sent');
      await machine.send('deployStatus', { deployId: aiDelivery, state: 'applied', version: 'm7' });
      expect((await machineRow(server.db, current.id)).softwareVersion).toBe('3.1'); // an AI package leaves the software version

      const versions = await server.call('GET', `/rvm/${current.id}/versions`, { token: fleet.token });
      expect(versions.body.resData).toMatchObject({ total: 2, softwareVersion: '3.1' });
      expect(versions.body.resData.list.map((row: { resourceType: string; version: string; source: string }) => [row.resourceType, row.version, row.source])).toEqual([
        ['ai', 'm7', 'deployment'],
        ['software', '3.1', 'hello'],
      ]);
      // each change names the deployment that installed it (a hello's: none)
      expect(versions.body.resData.list.map((row: { deploymentId: number | null }) => row.deploymentId)).toEqual([aiRun.id, null]);

      const overview = await server.call('GET', '/software-versions', { token: fleet.token });
      const v9 = overview.body.resData.find((row: { model: string }) => row.model === 'V9');
      expect(v9).toMatchObject({ machines: 2, behind: 1, lastUpgradeFailed: 1, newestPackage: { id: software.id, version: '3.1' } });
      expect(v9.versions).toEqual(
        expect.arrayContaining([
          { version: '3.0', machines: 1 },
          { version: '3.1', machines: 1 },
        ]),
      );
      const machinesOf = async (query: string) =>
        (await server.call('GET', `/software-versions/machines?model=V9&${query}`, { token: fleet.token })).body.resData.list.map((row: { id: number }) => row.id);
      expect(await machinesOf('kind=behind')).toEqual([behind.id]);
      expect(await machinesOf('kind=failed')).toEqual([behind.id]);
      expect(await machinesOf('kind=version&version=3.1')).toEqual([current.id]);
      expect((await machinesOf('kind=all')).sort()).toEqual([behind.id, current.id].sort());

      const models = await server.call('GET', '/ai-models', { token: fleet.token });
      expect(models.body.resData.find((row: { model: string }) => row.model === 'V9')).toMatchObject({ machines: 2, packages: [{ id: ai.id, version: 'm7', machines: 1 }] });
      const aiMachines = async (query: string) => (await server.call('GET', `/ai-models/machines?model=V9${query}`, { token: fleet.token })).body.resData;
      const runningM7 = await aiMachines(`&packageId=${ai.id}`);
      expect(runningM7).toMatchObject({ total: 1, list: [{ id: current.id, aiPackage: { id: ai.id, version: 'm7', deployId: aiDelivery, deploymentId: aiRun.id } }] });
      expect((await aiMachines('')).list.map((row: { id: number; aiPackage: unknown }) => [row.id, row.aiPackage])).toEqual([[behind.id, null]]);

      // each screen's own permission; another account's machine is not found
      const outsider = await userWith('noupg', ['deploymentPackage:page']);
      expect((await server.call('GET', '/software-versions', { token: outsider })).body.resCode).toBe('4003');
      expect((await server.call('GET', '/ai-models', { token: outsider })).body.resCode).toBe('4003');
      const upgrader = await userWith('upgrade', ['service:softwareUpgrade']);
      expect((await server.call('GET', '/software-versions', { token: upgrader })).body.resCode).toBe('00000');
      expect((await server.call('GET', '/ai-models', { token: upgrader })).body.resCode).toBe('4003');
      expect((await server.call('GET', '/ai-models/machines?model=V9', { token: upgrader })).body.resCode).toBe('4003');
      expect((await server.call('GET', `/rvm/${current.id}/versions`, { token: upgrader })).body.resCode).toBe('00000');
      const elsewhere = await accountNamed(server as never, 'Other versions');
      const [otherFleet] = await server.db.insert(fleetTable).values({ licenseAccountId: elsewhere, name: 'Elsewhere', level: 1 }).returning({ id: fleetTable.id });
      const [foreign] = await server.db
        .insert(rvm)
        .values({ licenseAccountId: elsewhere, fleetId: otherFleet.id, termNo: 'FOREIGN1', serialNumber: 'FOREIGN1', termType: 'V9' })
        .returning({ id: rvm.id });
      expect((await server.call('GET', `/rvm/${foreign.id}/versions`, { token: fleet.token })).body.resCode).toBe('6001');
      expect((await server.call('GET', '/software-versions', { token: fleet.token })).body.resData.find((row: { model: string }) => row.model === 'V9').machines).toBe(2);
    });
  },
  { gateway: embeddedGateway() },
);

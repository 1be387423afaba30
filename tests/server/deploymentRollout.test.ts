// Deployments (docs/deployments.md): preview and its exclusions, 8100 / 8200 / 8203, waves dealt at
// creation and started by the success threshold, the error threshold's pause, the operator's controls,
// approval by a second user, two job runs at once, permissions and the license account's boundary; the progress
// tally against a count of the targets.
import { eq, inArray, sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { translate } from '../../i18n';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { rowsOf } from '../../server/db/client';
import { auditLog } from '../../server/db/schema';
import { deployment, deploymentTargetTally } from '../../server/db/schema/deployments';
import { tallyRows } from '../../server/deployments/tally';
import { savedFilter } from '../../server/db/schema/auth';
import { settleDeliveries } from '../../server/commands/create';
import { applyDeployStatus, claimDeliveries } from '../../server/deployments/delivery';
import { rvm } from '../../server/db/schema/fleet';
import { recordingGateway, userWith } from './commandsHarness';
import { createPackage, deploymentRow, forgetDeployments, moveTargets, setUpDeploymentFleet, targetsOf, type DeploymentFleet } from './deploymentHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const fleet = {} as DeploymentFleet;
type Count = { wave: number; status: string; n: number };
const sorted = (rows: Count[]) => rows.map(({ wave, status, n }) => `${wave}/${status}/${n}`).sort();

describeFleet(
  'deployments and rollouts',
  (context: FleetContext) => {
    const call = (method: 'GET' | 'POST', path: string, body?: unknown, options: { lang?: string; token?: string } = {}) =>
      context.server.call(method, path, { token: options.token ?? context.token, body, lang: options.lang });
    const runJob = () => context.server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
    const create = async (body: Record<string, unknown>) => {
      const answer = await call('POST', '/deployment', body);
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return answer.body.resData;
    };

    it('previews the union of machines, fleets with sub-fleets, models and a saved filter, with each exclusion and its reason', async () => {
      const previous = await create({ packageId: fleet.config, targets: { machineIds: [fleet.h30[0]] }, waves: [100] });
      await moveTargets(context.server, previous.id, 'applied', {});
      await create({ packageId: fleet.config, targets: { machineIds: [fleet.h30[1]] }, waves: [100] });
      const [filter] = await context.server.db
        .insert(savedFilter)
        .values({ resource: 'machine', name: 'S1 only', filter: { termType: 'S1' }, visibility: 'personal', ownerId: (await call('GET', '/login/current')).body.resData.userId })
        .returning({ id: savedFilter.id });

      const byFleet = await call('POST', '/deployment/preview', { packageId: fleet.software, targets: { fleetIds: [fleet.childFleet] } });
      expect(byFleet.body.resCode, byFleet.body.resMsg).toBe('00000');
      // the sub-fleet: 8 H30, 2 S1 (wrong model for an H30 package) and the inactive one
      expect(byFleet.body.resData).toMatchObject({ selected: 11, targeted: 8, excludedCounts: { wrongModel: 2, inactive: 1, alreadyDelivered: 0, inFlight: 0 } });
      expect(byFleet.body.resData.excluded).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: fleet.s1[0], reason: 'wrongModel' }), expect.objectContaining({ id: fleet.inactive, reason: 'inactive' })]),
      );

      const union = await call('POST', '/deployment/preview', {
        packageId: fleet.config,
        targets: { machineIds: [fleet.h30[0], fleet.h30[1]], fleetIds: [fleet.rootFleet], savedFilterId: filter.id },
        waves: [25, 100],
      });
      const answer = union.body.resData;
      // the root fleet holds everything; the saved filter adds nothing new
      expect(answer.selected).toBe(fleet.h30.length + fleet.s1.length + 1);
      expect(answer.excludedCounts).toEqual({ wrongModel: 0, inactive: 1, alreadyDelivered: 1, inFlight: 1 });
      expect(answer.excluded).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: fleet.h30[0], reason: 'alreadyDelivered' }), expect.objectContaining({ id: fleet.h30[1], reason: 'inFlight' })]),
      );
      expect(answer.targeted).toBe(fleet.h30.length - 2 + fleet.s1.length);
      expect(answer.machines.map((machine: { id: number }) => machine.id)).not.toContain(fleet.h30[0]);
      expect(answer.waves).toEqual([4, 12]);

      const byModel = await call('POST', '/deployment/preview', { packageId: fleet.config, targets: { models: ['S1'] } });
      // default waves 1/10/50/100 % of 2 machines: the waves left empty are dropped
      expect(byModel.body.resData).toMatchObject({ selected: 2, targeted: 2, waves: [1, 1] });
      const bySavedFilter = await call('POST', '/deployment/preview', { packageId: fleet.config, targets: { savedFilterId: filter.id } });
      expect(bySavedFilter.body.resData.machines.map((machine: { id: number }) => machine.id)).toEqual(fleet.s1);
      await forgetDeployments(context.server, fleet.config);
    });

    it('answers 8100 for a missing, foreign or not uploaded package, 8200 when every machine has it or is getting it, 8203 when none can take it', async () => {
      for (const packageId of [999_999, fleet.foreignPackage, fleet.notUploaded]) {
        for (const path of ['/deployment', '/deployment/preview']) {
          const answer = await call('POST', path, { packageId, targets: { machineIds: [fleet.h30[0]] } }, { lang: 'zh' });
          expect(answer.body).toMatchObject({ resCode: '8100', resMsg: translate('zh', 'errors.8100') });
        }
      }
      const first = await create({ packageId: fleet.config, targets: { machineIds: fleet.h30.slice(0, 3) } });
      await moveTargets(context.server, first.id, 'applied', { count: 1 });
      const again = await call('POST', '/deployment', { packageId: fleet.config, targets: { machineIds: fleet.h30.slice(0, 3) } });
      expect(again.body).toMatchObject({ resCode: '8200', resData: { excludedCounts: { alreadyDelivered: 1, inFlight: 2 } } });
      // a machine of the selection that may take it: created, for that machine only
      const partly = await create({ packageId: fleet.config, targets: { machineIds: fleet.h30.slice(0, 4) } });
      expect(partly.total).toBe(1);
      const wrong = await call('POST', '/deployment', { packageId: fleet.software, targets: { machineIds: fleet.s1 } });
      expect(wrong.body.resCode).toBe('8203');
      // another account's machine: 6001; nothing selected: 1001
      expect((await call('POST', '/deployment', { packageId: fleet.software, targets: { machineIds: [fleet.foreignMachine] } })).body.resCode).toBe('6001');
      expect((await call('POST', '/deployment', { packageId: fleet.software, targets: {} })).body.resCode).toBe('1001');
      await forgetDeployments(context.server, fleet.config);
    });

    it('refuses wave plans that do not rise to 100 or give both forms, in the request language', async () => {
      for (const lang of ['en', 'zh']) {
        const falling = await call('POST', '/deployment/preview', { packageId: fleet.software, targets: { models: ['H30'] }, waves: [50, 10, 100] }, { lang });
        expect(falling.body).toMatchObject({ resCode: '1004', resData: { issues: [{ field: 'waves', message: translate(lang as 'en', 'validation.wavesRising') }] } });
        const both = await call('POST', '/deployment', { packageId: fleet.software, targets: { models: ['H30'] }, waves: [100], waveSizes: [2] }, { lang });
        expect(both.body.resData.issues).toEqual([{ field: 'waveSizes', message: translate(lang as 'en', 'validation.wavesOrSizes') }]);
      }
      expect((await call('POST', '/deployment', { packageId: fleet.software, targets: { models: ['H30'] }, waves: [10, 90] })).body.resCode).toBe('1004');
      expect((await call('POST', '/deployment', { packageId: fleet.software, targets: { models: ['H30'] }, successThreshold: 0 })).body.resCode).toBe('1004');
    });

    it('deals targets into waves at creation and starts the next wave once the success threshold is reached', async () => {
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [3, 5], successThreshold: 60 });
      expect(created).toMatchObject({ status: 'running', currentWave: 1, waveCount: 3, total: 16, counts: { toBeIssued: 16 } });
      expect(created.waves.map((wave: { size: number }) => wave.size)).toEqual([3, 5, 8]);
      const targets = await targetsOf(context.server, created.id);
      // both fleets of the model are in the first two waves (spread at creation)
      const rootMachines = new Set(fleet.h30.slice(0, 8));
      const wavesOfRoot = new Set(targets.filter((row) => rootMachines.has(row.rvmId)).map((row) => row.wave));
      const wavesOfChild = new Set(targets.filter((row) => !rootMachines.has(row.rvmId)).map((row) => row.wave));
      expect([...wavesOfRoot].sort()).toEqual([1, 2, 3]);
      expect([...wavesOfChild].sort()).toEqual([1, 2, 3]);

      await moveTargets(context.server, created.id, 'applied', { wave: 1, count: 1 });
      await runJob();
      expect((await deploymentRow(context.server, created.id)).currentWave).toBe(1); // 1 of 3 < 60 %
      await moveTargets(context.server, created.id, 'applied', { wave: 1, count: 2 });
      await runJob();
      const second = (await call('GET', `/deployment/${created.id}`)).body.resData;
      expect(second).toMatchObject({ currentWave: 2, applied: 2 });
      expect(second.waves.map((wave: { started: boolean }) => wave.started)).toEqual([true, true, false]);

      await moveTargets(context.server, created.id, 'applied', { wave: 2 });
      await moveTargets(context.server, created.id, 'applied', { wave: 1 });
      await runJob();
      expect((await deploymentRow(context.server, created.id)).currentWave).toBe(3);
      await moveTargets(context.server, created.id, 'applied', { wave: 3 });
      await runJob();
      expect(await deploymentRow(context.server, created.id)).toMatchObject({ status: 'completed', currentWave: 3 });
      await forgetDeployments(context.server, fleet.software);
    });

    it('keeps only always-enabled triggers on deployment_target: on PGlite its insert runs with session_replication_role = replica, which skips the others', async () => {
      // server/deployments/targets.ts insertTargets: a trigger added to this table would otherwise run on PostgreSQL only
      const triggers = await context.server.db.execute(
        sql`select tgname, tgenabled from pg_trigger where tgrelid = 'deployment_target'::regclass and not tgisinternal order by tgname`,
      );
      expect(rowsOf(triggers)).toEqual(['delete', 'insert', 'truncate', 'update'].map((event) => ({ tgname: `deployment_target_tally_${event}`, tgenabled: 'A' })));
    });

    it('pauses when failed targets of the started waves exceed the error threshold, and again after a resume that changed nothing', async () => {
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [4], errorThreshold: 25 });
      await moveTargets(context.server, created.id, 'applyFailed', { wave: 1, count: 1 });
      await runJob();
      expect((await deploymentRow(context.server, created.id)).status).toBe('running'); // 1 of 4 = 25 %, not above
      await moveTargets(context.server, created.id, 'receiveFailed', { wave: 1, count: 2 });
      await runJob();
      const paused = (await call('GET', `/deployment/${created.id}`)).body.resData;
      expect(paused).toMatchObject({ status: 'paused', pauseReason: { kind: 'errorThreshold', failed: 2, started: 4, rate: 50, threshold: 25 } });

      expect((await call('POST', `/deployment/${created.id}/resume`, {})).body.resData).toMatchObject({ status: 'running', pauseReason: null });
      await runJob();
      expect((await deploymentRow(context.server, created.id)).status).toBe('paused');
      // retry failed: attempts kept, the cause gone; a raised threshold is another way out
      const retried = (await call('POST', `/deployment/${created.id}/retryFailed`)).body.resData;
      expect(retried.counts).toMatchObject({ applyFailed: 0, receiveFailed: 0, toBeIssued: 16 });
      expect((await targetsOf(context.server, created.id)).filter((row) => row.attempts === 1)).toHaveLength(2);
      await call('POST', `/deployment/${created.id}/resume`, { errorThreshold: 60 });
      await runJob();
      expect(await deploymentRow(context.server, created.id)).toMatchObject({ status: 'running', errorThreshold: 60 });
      await forgetDeployments(context.server, fleet.software);
    });

    it('pauses, resumes and cancels (unfinished targets voided), answering 8202 from a status that does not allow it; a start and a resume ask for the rollout check', async () => {
      const soon = vi.spyOn(context.server.app.services.jobs, 'soon');
      const checksAsked = () => soon.mock.calls.filter(([name]) => name === DEPLOYMENTS_JOB).length;
      const created = await create({ packageId: fleet.software, targets: { fleetIds: [fleet.rootFleet] } });
      const id = created.id;
      expect(checksAsked()).toBe(1);
      await moveTargets(context.server, id, 'applied', { count: 2 });
      await moveTargets(context.server, id, 'inProcess', { rvmIds: (await targetsOf(context.server, id)).slice(5, 7).map((row) => row.rvmId) });
      const paused = (await call('POST', `/deployment/${id}/pause`)).body.resData;
      expect(paused).toMatchObject({ status: 'paused', pauseReason: { kind: 'operator' } });
      expect((await call('POST', `/deployment/${id}/pause`, undefined, { lang: 'zh' })).body).toMatchObject({ resCode: '8202', resMsg: translate('zh', 'errors.8202') });
      expect(checksAsked()).toBe(1);
      expect((await call('POST', `/deployment/${id}/resume`)).body.resData.status).toBe('running');
      expect(checksAsked()).toBe(2);
      const cancelled = (await call('POST', `/deployment/${id}/cancel`)).body.resData;
      expect(checksAsked()).toBe(2);
      soon.mockRestore();
      expect(cancelled).toMatchObject({ status: 'cancelled', counts: { applied: 2, voided: created.total - 2, inProcess: 0, toBeIssued: 0 } });
      expect((await call('POST', `/deployment/${id}/resume`)).body.resCode).toBe('8202');
      const entries = await context.server.db.select().from(auditLog).where(eq(auditLog.resource, 'deployment'));
      expect(entries.filter((entry) => entry.recordId === id).map((entry) => entry.action)).toEqual(['create', 'update', 'update', 'update']);
      await forgetDeployments(context.server, fleet.software);
    });

    it('waits for a second user with deployment:approve: the creator is refused, a user without it too', async () => {
      const soon = vi.spyOn(context.server.app.services.jobs, 'soon');
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, requiresApproval: true });
      expect(created).toMatchObject({ status: 'awaitingApproval', currentWave: 0 });
      expect(soon).not.toHaveBeenCalled(); // nothing to check before its approval
      await runJob();
      expect((await deploymentRow(context.server, created.id)).currentWave).toBe(0);
      expect((await call('POST', `/deployment/${created.id}/approve`)).body.resCode).toBe('8201');
      const controller = await userWith(context, 'dctl', ['deployment:page', 'deployment:control']);
      expect((await call('POST', `/deployment/${created.id}/approve`, undefined, { token: controller })).body.resCode).toBe('4003');
      const approver = await userWith(context, 'dappr', ['deployment:page', 'deployment:approve']);
      const approved = (await call('POST', `/deployment/${created.id}/approve`, undefined, { token: approver })).body.resData;
      expect(approved).toMatchObject({ status: 'running', currentWave: 1, approvedByName: 'Real dappr' });
      expect(soon).toHaveBeenCalledExactlyOnceWith(DEPLOYMENTS_JOB);
      soon.mockRestore();
      expect((await call('POST', `/deployment/${created.id}/approve`, undefined, { token: approver })).body.resCode).toBe('8202');
      // the controller may pause, not create
      expect((await call('POST', `/deployment/${created.id}/pause`, undefined, { token: controller })).body.resCode).toBe('00000');
      expect((await call('POST', '/deployment', { packageId: fleet.software, targets: { models: ['H30'] } }, { token: controller })).body.resCode).toBe('4003');
      await forgetDeployments(context.server, fleet.software);
    });

    it('sends a started wave to its machines online: at creation, then when the job starts the next wave', async () => {
      const delivered: number[] = [];
      const previous = context.server.app.services.gateway;
      context.server.app.services.gateway = recordingGateway(delivered);
      try {
        await context.server.db.update(rvm).set({ online: true }).where(inArray(rvm.id, fleet.h30));
        const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [5] });
        const targets = await targetsOf(context.server, created.id);
        const waveOf = (wave: number) =>
          targets
            .filter((row) => row.wave === wave)
            .map((row) => row.rvmId)
            .sort((a, b) => a - b);
        await settleDeliveries(context.server.app.services);
        expect([...delivered].sort((a, b) => a - b)).toEqual(waveOf(1));
        delivered.length = 0;
        await moveTargets(context.server, created.id, 'applied', { wave: 1 });
        await runJob();
        await settleDeliveries(context.server.app.services);
        expect([...delivered].sort((a, b) => a - b)).toEqual(waveOf(2));
      } finally {
        context.server.app.services.gateway = previous;
        await context.server.db.update(rvm).set({ online: false }).where(inArray(rvm.id, fleet.h30));
        await forgetDeployments(context.server, fleet.software);
      }
    });

    it("counts the started waves' targets waiting for their machine offline, and only those", async () => {
      await context.server.db.update(rvm).set({ online: false }).where(inArray(rvm.id, fleet.h30));
      try {
        const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [2] });
        const detail = async () => (await call('GET', `/deployment/${created.id}`)).body.resData as { offlineWaiting: number; currentWave: number };
        // wave 1 (two machines) started, both offline; the later wave's machines are not counted yet
        expect(await detail()).toMatchObject({ currentWave: 1, offlineWaiting: 2 });
        const firstWave = (await targetsOf(context.server, created.id)).filter((row) => row.wave === 1).map((row) => row.rvmId);
        // online by its seeded status but never heard by the gateway (the demo fleet's): still waiting
        await context.server.db
          .update(rvm)
          .set({ online: true, lastSeenTime: null })
          .where(inArray(rvm.id, firstWave.slice(0, 1)));
        expect((await detail()).offlineWaiting).toBe(2);
        await context.server.db
          .update(rvm)
          .set({ online: true, lastSeenTime: new Date() })
          .where(inArray(rvm.id, firstWave.slice(0, 1)));
        expect((await detail()).offlineWaiting).toBe(1);
        const rows = await call('POST', `/deployment/${created.id}/targets`, { pageNum: 1, pageSize: 50, wave: 1 });
        const reachable = (rows.body.resData.list as Array<{ rvmId: number; reachable: boolean }>).map((row) => [row.rvmId, row.reachable]);
        expect(new Map(reachable as Array<[number, boolean]>).get(firstWave[0])).toBe(true);
        expect(reachable.filter(([, value]) => value === false)).toHaveLength(1);
      } finally {
        await context.server.db.update(rvm).set({ online: false }).where(inArray(rvm.id, fleet.h30));
        await forgetDeployments(context.server, fleet.software);
      }
    });

    it('starts the next wave from what the machines report through the delivery path (claimed, received, applied)', async () => {
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [2], successThreshold: 100 });
      const first = (await targetsOf(context.server, created.id)).filter((row) => row.wave === 1);
      for (const [index, target] of first.entries()) {
        const [message] = await claimDeliveries(context.server.db, target.rvmId, 'http://127.0.0.1/test-api');
        expect(message.deployId).toBe(target.id);
        const machine = { id: target.rvmId, licenseAccountId: context.accountId };
        await applyDeployStatus(context.server.db, machine, { deployId: message.deployId, state: 'received' }, new Date());
        await runJob();
        expect((await deploymentRow(context.server, created.id)).currentWave).toBe(1);
        await applyDeployStatus(context.server.db, machine, { deployId: message.deployId, state: 'applied', version: '9.9' }, new Date());
        await runJob();
        expect((await deploymentRow(context.server, created.id)).currentWave).toBe(index === first.length - 1 ? 2 : 1);
      }
      await forgetDeployments(context.server, fleet.software);
    });

    it('starts a wave once when two instances run the job at the same moment', async () => {
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [2, 2, 2] });
      await moveTargets(context.server, created.id, 'applied', { wave: 1 });
      const other = await context.server.anotherInstance();
      await Promise.all([runJob(), other.services.jobs.runNow(DEPLOYMENTS_JOB), runJob()]);
      expect((await deploymentRow(context.server, created.id)).currentWave).toBe(2);
      await forgetDeployments(context.server, fleet.software);
    });

    it("lists, filters and pages deployments and their targets; another account's deployment is not found; permissions are required", async () => {
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [4] });
      await moveTargets(context.server, created.id, 'applyFailed', { wave: 1, count: 1 });
      const page = await call('POST', '/deployment/page', { pageNum: 1, pageSize: 20, status: ['running'], packageId: fleet.software });
      expect(page.body.resData.list).toEqual([expect.objectContaining({ id: created.id, targetCount: 16, waveCount: 2, appliedCount: 0, failedCount: 1, status: 'running' })]);
      expect((await call('POST', '/deployment/page', { pageNum: 1, pageSize: 20, status: ['completed'] })).body.resData.total).toBe(0);
      const targets = await call('POST', `/deployment/${created.id}/targets`, { pageNum: 1, pageSize: 3, wave: 1 });
      expect(targets.body.resData).toMatchObject({ total: 4 });
      expect(targets.body.resData.list).toHaveLength(3);
      const failed = await call('POST', `/deployment/${created.id}/targets`, { status: ['applyFailed'] });
      expect(failed.body.resData.list).toEqual([expect.objectContaining({ status: 'applyFailed', wave: 1, attempts: 1, termNo: expect.stringMatching(/^D[AB]/) })]);

      const exported = await context.server.app.inject({ method: 'POST', url: '/test-api/deployment/export', headers: { 'rvm-token': context.token }, payload: { format: 'csv' } });
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain(String(created.id));

      const foreignPackage = await createPackage(context.server, fleet.otherAccount);
      const [foreign] = await context.server.db
        .insert(deployment)
        .values({ licenseAccountId: fleet.otherAccount, packageId: foreignPackage, targets: {}, waves: { counts: [1], total: 1 }, expiresTime: new Date(Date.now() + 86_400_000) })
        .returning({ id: deployment.id });
      expect((await call('GET', `/deployment/${foreign.id}`)).body.resCode).toBe('2003');
      expect((await call('POST', `/deployment/${foreign.id}/targets`, {})).body.resCode).toBe('2003');
      expect((await call('POST', `/deployment/${foreign.id}/cancel`)).body.resCode).toBe('2003');
      expect((await deploymentRow(context.server, foreign.id)).status).toBe('running');
      expect((await call('POST', '/deployment/page', { pageNum: 1, pageSize: 50 })).body.resData.list.map((row: { id: number }) => row.id)).not.toContain(foreign.id);

      const nobody = await userWith(context, 'dnone', ['machine:page']);
      for (const [method, path] of [
        ['GET', `/deployment/${created.id}`],
        ['POST', '/deployment/page'],
        ['POST', '/deployment/preview'],
        ['POST', `/deployment/${created.id}/pause`],
      ] as const) {
        expect((await call(method, path, method === 'POST' ? { pageNum: 1, pageSize: 10 } : undefined, { token: nobody })).body.resCode, path).toBe('4003');
      }
      await forgetDeployments(context.server, fleet.software);
    });

    // docs/deployments.md "Progress counts"; last: it deletes a machine of the fleet
    it('keeps the progress tally equal to the targets counted per wave and status after creation, batch and concurrent updates, a deleted machine and folds', async () => {
      const db = () => context.server.db;
      const counted = async (id: number) =>
        sorted(rowsOf<Count>(await db().execute(sql`select wave, status, count(*)::int as n from deployment_target where deployment_id = ${id} group by 1, 2`)));
      const tallied = async (id: number) => sorted(rowsOf<Count>(await db().execute(tallyRows(id))));
      const tallyRowCount = async (id: number) => (await db().select().from(deploymentTargetTally).where(eq(deploymentTargetTally.deploymentId, id))).length;
      const created = await create({ packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [4, 12] });
      // written by hand: 16 active H30 machines, 4 in wave 1 and 12 in wave 2, all to be issued
      expect(await tallied(created.id)).toEqual(['1/toBeIssued/4', '2/toBeIssued/12']);
      expect(await tallied(created.id)).toEqual(await counted(created.id));

      await moveTargets(context.server, created.id, 'issued', { wave: 1 });
      await moveTargets(context.server, created.id, 'applied', { wave: 1, count: 3 });
      // machines reporting at the same moment, one statement each (on PostgreSQL in parallel transactions)
      const second = (await targetsOf(context.server, created.id)).filter((row) => row.wave === 2);
      await Promise.all(second.slice(0, 8).map((row, index) => moveTargets(context.server, created.id, index % 2 ? 'receiveFailed' : 'inProcess', { rvmIds: [row.rvmId] })));
      // an update that changes no status adds nothing
      const before = await tallyRowCount(created.id);
      await moveTargets(context.server, created.id, 'applied', { wave: 1, count: 3 });
      expect(await tallyRowCount(created.id)).toBe(before);
      expect(await tallied(created.id)).toEqual(['1/applied/3', '1/issued/1', '2/inProcess/4', '2/receiveFailed/4', '2/toBeIssued/4']);
      expect(await tallied(created.id)).toEqual(await counted(created.id));

      // a machine deleted takes its delivery out of the count
      await db().delete(rvm).where(eq(rvm.id, second[0].rvmId));
      expect(await tallied(created.id)).toEqual(['1/applied/3', '1/issued/1', '2/inProcess/3', '2/receiveFailed/4', '2/toBeIssued/4']);

      // two instances fold while machines keep reporting: nothing lost, nothing counted twice
      const other = await context.server.anotherInstance();
      const rest = second.slice(8);
      await Promise.all([runJob(), other.services.jobs.runNow(DEPLOYMENTS_JOB), ...rest.map((row) => moveTargets(context.server, created.id, 'issued', { rvmIds: [row.rvmId] }))]);
      await runJob();
      expect(await tallied(created.id)).toEqual(['1/applied/3', '1/issued/1', '2/inProcess/3', '2/issued/4', '2/receiveFailed/4']);
      expect(await tallied(created.id)).toEqual(await counted(created.id));
      // folded: one row per (wave, status) at most
      expect(await tallyRowCount(created.id)).toBeLessThanOrEqual(5);

      // the page reads the same counts
      const detail = (await context.server.call('GET', `/deployment/${created.id}`, { token: context.token })).body.resData;
      expect(detail).toMatchObject({ total: 15, applied: 3, failed: 4, counts: { applied: 3, issued: 5, inProcess: 3, receiveFailed: 4, toBeIssued: 0 } });

      // the tally goes with its deployment (its targets' cascade adds no row for a deployment that is gone)
      await forgetDeployments(context.server, fleet.software);
      expect(await tallyRowCount(created.id)).toBe(0);
    });
  },
  (context) => setUpDeploymentFleet(context, fleet),
);

// A deployment awaiting approval that nobody approves before its expiry time (docs/deployments.md
// "Deployment statuses"): the rollout job, on a simulated clock, moves it to `expired` once even when two
// instances run the job at the same moment; its targets become voided (never failed), one audit entry
// says so; approving it afterwards, or past its time before the job ran, answers 8202; approving it late gives it
// a whole delivery period from the approval.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog } from '../../server/db/schema';
import { deployment } from '../../server/db/schema/deployments';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { userWith } from './commandsHarness';
import { deploymentRow, forgetDeployments, setUpDeploymentFleet, targetsOf, type DeploymentFleet } from './deploymentHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const fleet = {} as DeploymentFleet;
const HOUR = 3_600_000;

describeFleet(
  'deployments awaiting approval expire',
  (context: FleetContext) => {
    const call = (method: 'GET' | 'POST', path: string, token = context.token) => context.server.call(method, path, { token });
    const runJobAt = (now: Date) => context.server.app.services.jobs.runNow(DEPLOYMENTS_JOB, now);
    const createAwaiting = async () => {
      const answer = await context.server.call('POST', '/deployment', {
        token: context.token,
        body: { packageId: fleet.software, targets: { models: ['H30'] }, requiresApproval: true, expiresInDays: 1 },
      });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      expect(answer.body.resData.status).toBe('awaitingApproval');
      return answer.body.resData as { id: number; total: number; expiresTime: string };
    };
    const auditOf = (id: number) =>
      context.server.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, 'deployment'), eq(auditLog.recordId, id)))
        .orderBy(auditLog.id);

    it('expires once at its expiry time with two instances running the job; its targets are voided, not failed, and the audit says so', async () => {
      const created = await createAwaiting();
      const expiresAt = new Date(created.expiresTime).getTime();
      await runJobAt(new Date(expiresAt - HOUR));
      expect((await deploymentRow(context.server, created.id)).status).toBe('awaitingApproval');
      expect((await targetsOf(context.server, created.id)).every((row) => row.status === 'toBeIssued')).toBe(true);

      const other = await context.server.anotherInstance();
      const later = new Date(expiresAt + 60_000);
      await Promise.all([runJobAt(later), other.services.jobs.runNow(DEPLOYMENTS_JOB, later), runJobAt(later)]);

      const detail = (await call('GET', `/deployment/${created.id}`)).body.resData;
      expect(detail).toMatchObject({ status: 'expired', currentWave: 0, counts: { voided: created.total, noFeedback: 0, toBeIssued: 0 }, failed: 0 });
      expect(new Set((await targetsOf(context.server, created.id)).map((row) => row.statusReason))).toEqual(new Set(['approvalExpired']));
      const entries = await auditOf(created.id);
      expect(entries.map((entry) => [entry.action, entry.userId])).toEqual([
        ['create', expect.any(Number)],
        ['update', null],
      ]);
      expect(JSON.parse(entries[1].changes ?? '{}')).toEqual({ status: { before: 'awaitingApproval', after: 'expired' } });
      expect(entries[1].detail).toMatchObject({ control: 'expire', reason: 'approvalExpired', voided: created.total });

      // no machine counts as a failed upgrade for a deployment that never started
      const h30 = (await call('GET', '/software-versions')).body.resData.find((row: { model: string }) => row.model === 'H30');
      expect(h30.lastUpgradeFailed).toBe(0);
      // an expired deployment moves no more: neither approved nor cancelled, nor touched by a later run
      const approver = await userWith(context, 'xappr', ['deployment:page', 'deployment:approve']);
      expect((await call('POST', `/deployment/${created.id}/approve`, approver)).body).toMatchObject({ resCode: '8202', resData: { status: 'expired' } });
      expect((await call('POST', `/deployment/${created.id}/cancel`)).body.resCode).toBe('8202');
      await runJobAt(new Date(expiresAt + 2 * HOUR));
      expect(await auditOf(created.id)).toHaveLength(2);
      // the list filters on the new status
      const listed = (await context.server.call('POST', '/deployment/page', { token: context.token, body: { pageNum: 1, pageSize: 10, status: ['expired'] } })).body.resData;
      expect(listed.list.map((row: { id: number }) => row.id)).toEqual([created.id]);
      await forgetDeployments(context.server, fleet.software);
    });

    it('gives a deployment approved late a whole delivery period from its approval', async () => {
      const created = await createAwaiting();
      // created 20 hours ago with a 1-day period: 4 hours left when approved
      await context.server.db
        .update(deployment)
        .set({ createdTime: new Date(Date.now() - 20 * HOUR), expiresTime: new Date(Date.now() + 4 * HOUR) })
        .where(eq(deployment.id, created.id));
      const approver = await userWith(context, 'zappr', ['deployment:page', 'deployment:approve']);
      const before = Date.now();
      expect((await call('POST', `/deployment/${created.id}/approve`, approver)).body.resCode).toBe('00000');
      const expires = (await deploymentRow(context.server, created.id)).expiresTime.getTime();
      expect(expires).toBeGreaterThanOrEqual(before + 24 * HOUR - 5_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 24 * HOUR + 5_000);
      await forgetDeployments(context.server, fleet.software);
    });

    it('refuses an approval past the expiry time even before the job has run', async () => {
      const created = await createAwaiting();
      await context.server.db
        .update(deployment)
        .set({ expiresTime: new Date(Date.now() - 1000) })
        .where(eq(deployment.id, created.id));
      const approver = await userWith(context, 'yappr', ['deployment:page', 'deployment:approve']);
      expect((await call('POST', `/deployment/${created.id}/approve`, approver)).body).toMatchObject({ resCode: '8202', resData: { status: 'expired' } });
      expect((await deploymentRow(context.server, created.id)).status).toBe('awaitingApproval');
      await runJobAt(new Date());
      expect((await deploymentRow(context.server, created.id)).status).toBe('expired');
      await forgetDeployments(context.server, fleet.software);
    });
  },
  (context) => setUpDeploymentFleet(context, fleet),
);

// The business gate (docs/deployments.md "The business gate"): a worse reject rate or fewer sessions per
// machine-hour on the updated machines pauses the rollout with the rule that fired; equal figures let
// the next wave start; below 20 items a side it does not judge; a resume starts a new window.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { judgeGate, type GateSide } from '../../server/deployments/gate';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { deploymentRollout } from '../../server/db/schema/rollouts';
import { deploymentRow, forgetDeployments, moveTargets, setUpDeploymentFleet, type DeploymentFleet } from './deploymentHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const fleet = {} as DeploymentFleet;
const GATE = { windowMinutes: 60, maxRejectRateIncrease: 5, maxSessionsDrop: 50 };

const sideOf = (items: number, rejected: number, sessionsPerMachineHour = 1): GateSide => ({
  machines: 4,
  sessions: 4,
  items,
  rejected,
  rejectRate: items ? (rejected / items) * 100 : null,
  sessionsPerMachineHour,
});

describe('the gate verdict', () => {
  it('fires on a reject rate more than the limit above, or sessions more than the limit below; not at the limit; not without 20 items a side', () => {
    expect(judgeGate(GATE, sideOf(100, 10), sideOf(100, 5))).toMatchObject({ verdict: 'pass', rejectRateIncrease: 5 });
    expect(judgeGate(GATE, sideOf(100, 11), sideOf(100, 5))).toMatchObject({ verdict: 'fail', rule: 'rejectRate', rejectRateIncrease: 6 });
    expect(judgeGate(GATE, sideOf(100, 5, 0.5), sideOf(100, 5, 1))).toMatchObject({ verdict: 'pass', sessionsDrop: 50 });
    expect(judgeGate(GATE, sideOf(100, 5, 0.4), sideOf(100, 5, 1))).toMatchObject({ verdict: 'fail', rule: 'sessions', sessionsDrop: 60 });
    expect(judgeGate(GATE, sideOf(19, 19), sideOf(100, 0))).toMatchObject({ verdict: 'notEnoughData', rule: null });
    expect(judgeGate(GATE, sideOf(100, 50), sideOf(19, 0))).toMatchObject({ verdict: 'notEnoughData' });
  });
});

describeFleet(
  'the business gate of a rollout',
  (context: FleetContext) => {
    const runJob = () => context.server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
    const detail = async (id: number) => (await context.server.call('GET', `/deployment/${id}`, { token: context.token })).body.resData;

    /** Sessions of the machines within the last half hour, and the hourly roll-up the gate reads with them. */
    const addSessions = async (rvmIds: readonly number[], { perMachine, items, rejected }: { perMachine: number; items: number; rejected: number }) => {
      const rows = rvmIds.flatMap((rvmId) =>
        Array.from({ length: perMachine }, (_, index) => {
          const start = new Date(Date.now() - (5 + index) * 60_000);
          return {
            licenseAccountId: context.accountId,
            rvmId,
            startTime: start,
            endTime: new Date(start.getTime() + 30_000),
            payoutMethod: 'receipt',
            totalRefund: 1,
            itemCount: items,
            acceptedCount: items - rejected,
            rejectedCount: rejected,
          };
        }),
      );
      await context.server.db.insert(consumerSession).values(rows);
      await context.server.db.execute(sql`
        insert into rvm_hourly_usage (rvm_id, hour, license_account_id, sessions, items, accepted, rejected, refund)
        select rvm_id, to_timestamp(floor(extract(epoch from start_time) / 3600) * 3600), license_account_id, count(*), sum(item_count), sum(accepted_count), sum(rejected_count), sum(total_refund)
        from consumer_session where rvm_id = any(${sql.param([...rvmIds])}::int4[]) group by 1, 2, 3
        on conflict (rvm_id, hour) do update set sessions = excluded.sessions, items = excluded.items, accepted = excluded.accepted, rejected = excluded.rejected, refund = excluded.refund`);
    };

    /** A deployment of the software package with a gate, its first wave (4 machines) applied two hours ago, its gate window open for three. */
    const updatedWave = async () => {
      await forgetDeployments(context.server, fleet.software);
      await context.server.db.execute(sql`delete from consumer_session where license_account_id = ${context.accountId}`);
      await context.server.db.execute(sql`delete from rvm_hourly_usage where license_account_id = ${context.accountId}`);
      const answer = await context.server.call('POST', '/deployment', {
        token: context.token,
        body: { packageId: fleet.software, targets: { models: ['H30'] }, waveSizes: [4], gate: GATE },
      });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      const id: number = answer.body.resData.id;
      await context.server.db
        .update(deploymentRollout)
        .set({ gateSince: sql`now() - interval '3 hours'` })
        .where(eq(deploymentRollout.deploymentId, id));
      const updated = await moveTargets(context.server, id, 'applied', { wave: 1, minutesAgo: 120 });
      const others = fleet.h30.filter((rvmId) => !updated.includes(rvmId));
      return { id, updated, others };
    };

    it('pauses when the updated machines reject more than the limit above the others, showing both sides', async () => {
      const { id, updated, others } = await updatedWave();
      await addSessions(updated, { perMachine: 2, items: 10, rejected: 3 });
      await addSessions(others, { perMachine: 2, items: 10, rejected: 0 });
      await runJob();
      const paused = await detail(id);
      expect(paused).toMatchObject({
        status: 'paused',
        currentWave: 1,
        pauseReason: {
          kind: 'gate',
          rule: 'rejectRate',
          limit: 5,
          rejectRateIncrease: 30,
          updated: { machines: 4, items: 80, rejected: 24, rejectRate: 30 },
          others: { rejectRate: 0 },
        },
        gateResult: { verdict: 'fail', rule: 'rejectRate' },
      });
      // the others: the model's active machines not updated (not the inactive H30 machine)
      expect(paused.gateResult.others).toMatchObject({ machines: others.length, items: others.length * 20 });

      // a resume starts a new window: no data in it yet, so no pause, and no next wave either
      expect((await context.server.call('POST', `/deployment/${id}/resume`, { token: context.token })).body.resData.status).toBe('running');
      await runJob();
      expect(await detail(id)).toMatchObject({ status: 'running', currentWave: 1, gateResult: { verdict: 'notEnoughData' } });
    });

    it('pauses when the updated machines have too few sessions per machine-hour', async () => {
      const { id, updated, others } = await updatedWave();
      await addSessions(updated, { perMachine: 1, items: 10, rejected: 1 });
      await addSessions(others, { perMachine: 4, items: 10, rejected: 1 });
      await runJob();
      expect(await detail(id)).toMatchObject({ status: 'paused', pauseReason: { kind: 'gate', rule: 'sessions', sessionsDrop: 75, limit: 50 } });
    });

    it('lets the next wave start when both sides do the same', async () => {
      const { id, updated, others } = await updatedWave();
      await addSessions(updated, { perMachine: 2, items: 10, rejected: 1 });
      await addSessions(others, { perMachine: 2, items: 10, rejected: 1 });
      await runJob();
      const passed = await detail(id);
      expect(passed).toMatchObject({ status: 'running', currentWave: 2, pauseReason: null, gateResult: { verdict: 'pass', rejectRateIncrease: 0, sessionsDrop: 0 } });
      expect(passed.gateResult.updated.sessionsPerMachineHour).toBe(passed.gateResult.others.sessionsPerMachineHour);
    });

    it('does not judge below 20 items a side: no pause, and the next wave waits for a verdict', async () => {
      const { id, updated, others } = await updatedWave();
      await addSessions(updated.slice(0, 1), { perMachine: 1, items: 19, rejected: 19 });
      await addSessions(others, { perMachine: 2, items: 10, rejected: 0 });
      await runJob();
      expect(await detail(id)).toMatchObject({ status: 'running', currentWave: 1, gateResult: { verdict: 'notEnoughData', updated: { items: 19 } } });
      // machines updated within the window count on neither side
      await moveTargets(context.server, id, 'applied', { wave: 2, count: 3, minutesAgo: 10 });
      await runJob();
      const row = await deploymentRow(context.server, id);
      expect(row.status).toBe('running');
      expect((await detail(id)).gateResult.others.machines).toBe(others.length - 3);
    });
  },
  (context) => setUpDeploymentFleet(context, fleet),
);

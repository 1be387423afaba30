// The business gate (docs/deployments.md "The business gate"): machines that applied the package at
// least a window ago must not do measurably worse than comparable machines not updated (same license
// account, the updated machines' models) over that window: reject rate (percentage points more) and
// sessions per machine-hour (percent fewer). Figures come from the dashboard's hourly roll-up for the
// window's whole hours and from the consumer sessions for the part hour at its start, as the home
// dashboard's "high reject rate" reads them.
import { sql } from 'drizzle-orm';
import { DEPLOYMENT_LIMITS, type GateConfig, type GateResult, type GateSide } from '../../resources/deployment';
import { rowsOf, type Db } from '../db/client';

// The gate's figures are one type for the server and the console (resources/deployment.ts).
export type { GateConfig, GateResult, GateSide };

const HOUR = 3_600_000;
const round = (value: number) => Math.round(value * 100) / 100;

const side = (row: { machines: number; sessions: number; items: number; rejected: number } | undefined, hours: number): GateSide => {
  const machines = Number(row?.machines ?? 0);
  const sessions = Number(row?.sessions ?? 0);
  const items = Number(row?.items ?? 0);
  const rejected = Number(row?.rejected ?? 0);
  return {
    machines,
    sessions,
    items,
    rejected,
    rejectRate: items > 0 ? round((rejected / items) * 100) : null,
    sessionsPerMachineHour: machines > 0 && hours > 0 ? round(sessions / (machines * hours)) : null,
  };
};

/** The verdict on two sides' figures: not enough data below the minimum items on either side, else the rules. */
export const judgeGate = (config: GateConfig, updated: GateSide, others: GateSide): Pick<GateResult, 'verdict' | 'rule' | 'rejectRateIncrease' | 'sessionsDrop'> => {
  const rejectRateIncrease = updated.rejectRate !== null && others.rejectRate !== null ? round(updated.rejectRate - others.rejectRate) : null;
  const sessionsDrop =
    updated.sessionsPerMachineHour !== null && others.sessionsPerMachineHour
      ? round(((others.sessionsPerMachineHour - updated.sessionsPerMachineHour) / others.sessionsPerMachineHour) * 100)
      : null;
  const figures = { rejectRateIncrease, sessionsDrop };
  if (updated.items < DEPLOYMENT_LIMITS.gateMinItems || others.items < DEPLOYMENT_LIMITS.gateMinItems) return { verdict: 'notEnoughData', rule: null, ...figures };
  if (rejectRateIncrease !== null && rejectRateIncrease > config.maxRejectRateIncrease) return { verdict: 'fail', rule: 'rejectRate', ...figures };
  if (sessionsDrop !== null && sessionsDrop > config.maxSessionsDrop) return { verdict: 'fail', rule: 'sessions', ...figures };
  return { verdict: 'pass', rule: null, ...figures };
};

interface SideRow {
  updated: boolean;
  machines: number;
  sessions: number;
  items: number;
  rejected: number;
}

/**
 * Both sides' figures over [max(now − window, since), now). Updated: the deployment's targets applied at
 * or before now − window. Others: the account's active machines of the updated machines' models with no
 * applied delivery in this deployment (those applied within the window count on neither side).
 */
export const measureGate = async (db: Db, deployment: { id: number; licenseAccountId: number }, config: GateConfig, since: Date, now: Date): Promise<GateResult> => {
  const cut = new Date(now.getTime() - config.windowMinutes * 60_000);
  const from = new Date(Math.max(cut.getTime(), since.getTime()));
  const firstHour = new Date(Math.min(Math.ceil(from.getTime() / HOUR) * HOUR, now.getTime()));
  const account = deployment.licenseAccountId;
  const rows = rowsOf<SideRow>(
    await db.execute(sql`
      with touched as (
        select t.rvm_id, t.finished_time <= ${cut.toISOString()}::timestamptz as updated
        from deployment_target t where t.deployment_id = ${deployment.id} and t.status = 'applied'
      ),
      models as (select distinct r.term_type from rvm r join touched t on t.rvm_id = r.id and t.updated),
      sides as (
        select r.id, coalesce(t.updated, false) as updated from rvm r left join touched t on t.rvm_id = r.id
        where r.license_account_id = ${account} and r.sts = 'active' and r.term_type in (select term_type from models) and (t.rvm_id is null or t.updated)
      ),
      usage as (
        select h.rvm_id, h.sessions, h.items, h.rejected from rvm_hourly_usage h
        where h.license_account_id = ${account} and h.hour >= ${firstHour.toISOString()}::timestamptz and h.hour < ${now.toISOString()}::timestamptz
          and h.rvm_id in (select id from sides)
        union all
        select cs.rvm_id, 1, cs.item_count, cs.rejected_count from consumer_session cs
        where cs.license_account_id = ${account} and cs.start_time >= ${from.toISOString()}::timestamptz
          and cs.start_time < ${firstHour.toISOString()}::timestamptz and cs.rvm_id in (select id from sides)
      )
      select s.updated, count(distinct s.id)::int as machines, coalesce(sum(u.sessions), 0)::int as sessions,
        coalesce(sum(u.items), 0)::int as items, coalesce(sum(u.rejected), 0)::int as rejected
      from sides s left join usage u on u.rvm_id = s.id
      group by s.updated`),
  );
  const hours = (now.getTime() - from.getTime()) / HOUR;
  const updated = side(
    rows.find((row) => row.updated),
    hours,
  );
  const others = side(
    rows.find((row) => !row.updated),
    hours,
  );
  return { ...judgeGate(config, updated, others), windowFrom: from.toISOString(), windowTo: now.toISOString(), updated, others };
};

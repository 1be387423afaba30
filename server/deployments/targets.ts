// Which machines a deployment targets (docs/deployments.md "Deployments"): the package (8100 when it
// is missing, another account's or not uploaded), the union of the selection (machine ids, fleets with
// their sub-fleets, models, a saved filter of the machine list) within the caller's license account,
// each selected machine classified in one statement (excluded as wrongModel, inactive,
// alreadyDelivered, inFlight, or targeted), and the waves the targets are dealt into.
import { Ajv } from 'ajv';
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { ACTIVE_DEPLOYMENT_STATUSES, EXCLUSION_REASONS, type ExclusionReason } from '../../resources/deployment';
import { DELIVERY_STATUSES, FINISHED_DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import type { Caller } from '../auth/principal';
import { listingWhere } from '../crud/query';
import { pageBodySchema } from '../crud/schemas';
import type { ModelRegistry, ResourceModel } from '../crud/model';
import { rowsOf, type Db } from '../db/client';
import { savedFilter } from '../db/schema';
import { deploymentPackage } from '../db/schema/deployments';
import { fleet, rvm } from '../db/schema/fleet';
import { resolveRelativeTimes } from '../savedFilters/relativeTimes';
import { issuesFromAjv } from '../lib/ajv';
import { AppError, invalid, invalidField } from '../lib/errors';
import { savedFilterVisibleTo } from '../savedFilters/visibility';
import { modelsOf } from './versions';

/** The `targets` of a deployment request: the union of what is given. */
export interface TargetSelection {
  machineIds?: number[];
  fleetIds?: number[];
  models?: string[];
  savedFilterId?: number;
}

export interface PackageInfo {
  id: number;
  name: string;
  version: string;
  resourceType: string;
  adaptedModels: string[];
}

export interface SelectedMachine {
  id: number;
  termNo: string;
  termType: string;
  fleetId: number;
  reason: ExclusionReason | null;
}

/**
 * The caller's uploaded package, else 8100 'Can not find the software package' (missing, another
 * account's, or no file yet). `lock`: held until the transaction ends, so two deployments of the same
 * package are created one after the other and the second sees the first's targets as in flight.
 */
export const packageFor = async (db: Db, account: number, packageId: number, lock = false): Promise<PackageInfo> => {
  const query = db
    .select({
      id: deploymentPackage.id,
      name: deploymentPackage.name,
      version: deploymentPackage.version,
      resourceType: deploymentPackage.resourceType,
      adaptedModels: deploymentPackage.adaptedModels,
      file: deploymentPackage.file,
    })
    .from(deploymentPackage)
    .where(and(eq(deploymentPackage.id, packageId), eq(deploymentPackage.licenseAccountId, account)));
  const [row] = lock ? await query.for('no key update') : await query;
  if (!row || row.file === null) throw new AppError('8100');
  return { id: row.id, name: row.name, version: row.version, resourceType: row.resourceType, adaptedModels: modelsOf(row.adaptedModels) };
};

const ids = (values: readonly number[]) => sql.param([...new Set(values)]);

/** The machine list's filter stored in a saved filter the caller may use (2003 otherwise), checked like a POST /rvm/page body. */
const savedFilterCondition = async (db: Db, model: ResourceModel, caller: Caller, id: number): Promise<SQL | undefined> => {
  const [row] = await db
    .select({ filter: savedFilter.filter })
    .from(savedFilter)
    .where(and(eq(savedFilter.id, id), eq(savedFilter.resource, model.declaration.name), savedFilterVisibleTo(caller)));
  if (!row) throw new AppError('2003', { issues: [{ field: 'targets.savedFilterId', message: 'validation.reference' }] });
  const names = new Set(model.declaration.list.filters.map((filter) => filter.name));
  const stored = resolveRelativeTimes((row.filter ?? {}) as Record<string, unknown>, new Date());
  const body = Object.fromEntries(Object.entries(stored).filter(([name]) => names.has(name)));
  const check = new Ajv({ strict: false, allErrors: true }).compile(pageBodySchema(model));
  if (!check(body)) throw invalid(issuesFromAjv(check.errors ?? []).map((issue) => ({ ...issue, field: `targets.savedFilterId.${issue.field}` })));
  return listingWhere(model, caller, body);
};

/**
 * The selected machines as one condition on `rvm`, within the caller's account: machine ids that are
 * not the account's answer 6001, fleets 2003, an unusable saved filter 2003; nothing selected 1001.
 */
export const selectionCondition = async (db: Db, models: ModelRegistry, caller: Caller, account: number, selection: TargetSelection): Promise<SQL> => {
  const parts: SQL[] = [];
  const { machineIds = [], fleetIds = [], models: termTypes = [], savedFilterId } = selection;
  if (machineIds.length) {
    const [{ found }] = rowsOf<{ found: number }>(
      await db.execute(sql`select count(*)::int as found from ${rvm} where ${rvm.licenseAccountId} = ${account} and ${rvm.id} = any(${ids(machineIds)}::int4[])`),
    );
    if (found !== new Set(machineIds).size) throw new AppError('6001');
    parts.push(sql`${rvm.id} = any(${ids(machineIds)}::int4[])`);
  }
  if (fleetIds.length) {
    const [{ found }] = rowsOf<{ found: number }>(
      await db.execute(sql`select count(*)::int as found from ${fleet} where ${fleet.licenseAccountId} = ${account} and ${fleet.id} = any(${ids(fleetIds)}::int4[])`),
    );
    if (found !== new Set(fleetIds).size) throw new AppError('2003', { issues: [{ field: 'targets.fleetIds', message: 'validation.reference' }] });
    parts.push(sql`${rvm.fleetId} in (
      with recursive subtree(id) as (
        select ${fleet.id} from ${fleet} where ${fleet.id} = any(${ids(fleetIds)}::int4[])
        union
        select child.id from ${fleet} child join subtree on child.parent_id = subtree.id
      ) select id from subtree)`);
  }
  if (termTypes.length) parts.push(sql`${rvm.termType} = any(${sql.param([...new Set(termTypes)])}::text[])`);
  if (savedFilterId !== undefined) {
    const model = models.get('machine');
    if (!model) throw invalidField('targets.savedFilterId', 'validation.reference');
    const condition = await savedFilterCondition(db, model, caller, savedFilterId);
    parts.push(condition ?? sql`true`);
  }
  if (parts.length === 0) throw invalidField('targets', 'validation.selectOne', '1001');
  return and(eq(rvm.licenseAccountId, account), or(...parts)) as SQL;
};

/** Deliveries that may still move (not finished). */
export const UNFINISHED_DELIVERY_STATUSES = DELIVERY_STATUSES.filter((status) => !(FINISHED_DELIVERY_STATUSES as readonly string[]).includes(status));

/**
 * The selected machines with their exclusion reason (null: targeted), as a subquery. The first reason
 * that applies wins: wrongModel, inactive, alreadyDelivered (a delivery of this package applied),
 * inFlight (an unfinished delivery of this package in a deployment still moving).
 */
const selectedMachines = (pkg: PackageInfo, condition: SQL) => sql`
  select rvm.id, rvm.term_no, rvm.term_type, rvm.fleet_id,
    case when not (rvm.term_type = any(${sql.param(pkg.adaptedModels)}::text[])) then 'wrongModel'
         when rvm.sts <> 'active' then 'inactive'
         when h.applied then 'alreadyDelivered'
         when h.in_flight then 'inFlight' end as reason
  from ${rvm}
  left join (
    select t.rvm_id, bool_or(t.status = 'applied') as applied,
      bool_or(d.status = any(${sql.param([...ACTIVE_DEPLOYMENT_STATUSES])}::text[]) and t.status = any(${sql.param(UNFINISHED_DELIVERY_STATUSES)}::text[])) as in_flight
    from deployment_target t join deployment d on d.id = t.deployment_id
    where d.package_id = ${pkg.id}
    group by t.rvm_id
  ) h on h.rvm_id = rvm.id
  where ${condition}`;

export type ExclusionCounts = Record<ExclusionReason, number>;

/** How many selected machines would be targeted, and how many each reason excluded (every reason present). */
export const countSelection = async (db: Db, pkg: PackageInfo, condition: SQL): Promise<{ selected: number; targeted: number; excludedCounts: ExclusionCounts }> => {
  const rows = rowsOf<{ reason: ExclusionReason | null; n: number }>(
    await db.execute(sql`select s.reason, count(*)::int as n from (${selectedMachines(pkg, condition)}) s group by s.reason`),
  );
  const excludedCounts = Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, 0])) as ExclusionCounts;
  let targeted = 0;
  for (const row of rows) {
    if (row.reason) excludedCounts[row.reason] = Number(row.n);
    else targeted = Number(row.n);
  }
  return { selected: rows.reduce((sum, row) => sum + Number(row.n), 0), targeted, excludedCounts };
};

export interface SelectedMachine {
  id: number;
  termNo: string;
  termType: string;
  fleetId: number;
  reason: ExclusionReason | null;
}

/** The first `targeted` machines that would be targeted and the first `excluded` excluded ones, in id order. */
export const listSelection = async (db: Db, pkg: PackageInfo, condition: SQL, limits: { targeted: number; excluded: number }): Promise<SelectedMachine[]> => {
  const rows = rowsOf<{ id: number; term_no: string; term_type: string; fleet_id: number; reason: ExclusionReason | null }>(
    await db.execute(sql`
      select id, term_no, term_type, fleet_id, reason from (
        select s.*, row_number() over (partition by s.reason is null order by s.id) as n from (${selectedMachines(pkg, condition)}) s
      ) listed
      where n <= case when reason is null then ${limits.targeted}::int else ${limits.excluded}::int end
      order by id`),
  );
  return rows.map((row) => ({ id: row.id, termNo: row.term_no, termType: row.term_type, fleetId: row.fleet_id, reason: row.reason }));
};

/**
 * Inserts the targets in one statement, nothing returned: the machines that may take the package in a
 * random order fixed now, spread so that every fleet and model is in every wave as far as its numbers
 * allow (a machine's place is its random rank within its fleet and model, as a fraction of that group,
 * plus a random offset within one step), then dealt into waves by `counts`. Rows go in machine id order, so
 * the indexes led by the deployment take them at their right edge instead of at random places.
 *
 * `singleSession` (PGlite: one backend, one transaction at a time): the foreign keys' per-row checks are
 * skipped for this statement (`session_replication_role`), nearly half its time for 10,000 rows
 * (docs/benchmarks.md "Deployments"). They cannot fail there: the deployment was inserted by this
 * transaction and the machines are read by this statement, and no other session exists that could delete
 * them before it commits. On PostgreSQL other sessions can, so the checks stay. The role also skips ordinary
 * triggers: deployment_target's (the progress tally's) are enabled ALWAYS, and tests/server/deploymentRollout.test.ts
 * fails if another is added.
 */
export const insertTargets = async (
  tx: Db,
  target: { deploymentId: number; account: number },
  pkg: PackageInfo,
  condition: SQL,
  counts: readonly number[],
  { singleSession = false }: { singleSession?: boolean } = {},
) => {
  const bounds = counts.map((_, index) => counts.slice(0, index + 1).reduce((sum, count) => sum + count, 0));
  if (singleSession) await tx.execute(sql`set local session_replication_role = replica`);
  await tx.execute(sql`
    with eligible as (select s.id, s.fleet_id, s.term_type from (${selectedMachines(pkg, condition)}) s where s.reason is null),
    placed as (
      select id, (row_number() over (partition by fleet_id, term_type order by random()) - 1 + random()) / count(*) over (partition by fleet_id, term_type) as place
      from eligible
    ),
    ranked as (select id, row_number() over (order by place) as rank from placed)
    insert into deployment_target (deployment_id, license_account_id, rvm_id, wave)
    select ${target.deploymentId}, ${target.account}, id,
      -- wave k holds the ranks after bound k-1 up to bound k: 1 + the number of bounds below the rank
      least(${counts.length}, 1 + width_bucket(rank - 1, ${sql.param(bounds)}::int8[]))
    from ranked
    order by id`);
  if (singleSession) await tx.execute(sql`set local session_replication_role = origin`);
};

/** How the targets are dealt into waves: cumulative percentages ending at 100, or explicit sizes. */
export type WavePlan = { percentages: readonly number[] } | { sizes: readonly number[] };

/**
 * Machines per wave for `total` targets, empty waves dropped. Percentages are cumulative (wave k ends at
 * ceil(total × p_k / 100) targets); sizes are counts per wave and the machines left after them form one
 * last wave.
 */
export const waveCounts = (total: number, plan: WavePlan): number[] => {
  const counts: number[] = [];
  if ('percentages' in plan) {
    let dealt = 0;
    for (const percentage of plan.percentages) {
      const end = Math.min(total, Math.ceil((total * percentage) / 100 - 1e-9));
      if (end > dealt) counts.push(end - dealt);
      dealt = Math.max(dealt, end);
    }
    if (dealt < total) counts.push(total - dealt);
  } else {
    let left = total;
    for (const size of plan.sizes) {
      if (left === 0) break;
      const taken = Math.min(size, left);
      counts.push(taken);
      left -= taken;
    }
    if (left > 0) counts.push(left);
  }
  return counts;
};

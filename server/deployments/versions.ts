// What machines run (docs/deployments.md "Versions"): Service › Software upgrade (software versions per
// model, machines behind the newest uploaded software package of their model, machines whose last software
// delivery failed) and a machine's version history, each change linked to the deployment that installed
// it. Everything is the caller's license account's. Service › AI is ./aiModels.ts.
import { and, count, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { FAILED_DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import { findMenuByKey } from '../../resources/menu';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import { rowsOf, type Db } from '../db/client';
import { deploymentPackage, deploymentTarget, rvmVersionHistory } from '../db/schema/deployments';
import { rvm } from '../db/schema/fleet';
import { findMachine, fleetRoute, iso, PAGE_PROPERTIES, pageOf, PERMISSIONS, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { NullableStringEnum, RowId, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

/** The menu entry of the screen (its own permission, as service › performance's; AI's: ./aiModels.ts). */
export const SOFTWARE_UPGRADE_PERMISSION = findMenuByKey('softwareUpgrade')!.identifier;

export const accountOf = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('2003');
  return caller.principal.licenseAccountId;
};

/** "a, B-2 ,c" → ['a', 'B-2', 'c']: a package's adapted models. */
export const modelsOf = (adaptedModels: string) =>
  adaptedModels
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);

interface PackageRow {
  id: number;
  name: string;
  version: string;
  createTime: Date;
  adaptedModels: string;
}

/** Uploaded packages of a resource type, newest first. */
export const uploadedPackages = (db: Db, account: number, resourceType: string): Promise<PackageRow[]> =>
  db
    .select({
      id: deploymentPackage.id,
      name: deploymentPackage.name,
      version: deploymentPackage.version,
      createTime: deploymentPackage.createTime,
      adaptedModels: deploymentPackage.adaptedModels,
    })
    .from(deploymentPackage)
    .where(and(eq(deploymentPackage.licenseAccountId, account), eq(deploymentPackage.resourceType, resourceType), isNotNull(deploymentPackage.file)))
    .orderBy(desc(deploymentPackage.createTime), desc(deploymentPackage.id));

/** Each model's newest uploaded software package. */
const newestByModel = (packages: PackageRow[]) => {
  const newest = new Map<string, PackageRow>();
  for (const item of packages) for (const model of modelsOf(item.adaptedModels)) if (!newest.has(model)) newest.set(model, item);
  return newest;
};

const FAILED = sql.join(
  FAILED_DELIVERY_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/** The machine's latest delivery of a `resourceType` package that was not voided: its status and times (a lateral subquery on `r`). */
const lastDelivery = (resourceType: string) => sql`
  left join lateral (
    select t.id as deploy_id, t.deployment_id, t.status, t.status_reason, t.finished_time
    from deployment_target t join deployment d on d.id = t.deployment_id join deployment_package p on p.id = d.package_id
    where t.rvm_id = r.id and p.resource_type = ${resourceType} and t.status <> 'voided'
    order by t.id desc limit 1
  ) last on true`;

export const packageSummary = (item: PackageRow | undefined) => (item ? { id: item.id, name: item.name, version: item.version, createTime: iso(item.createTime) } : null);

const softwareOverview = async (db: Db, account: number) => {
  const [versions, failed, packages] = await Promise.all([
    db
      .select({ model: rvm.termType, version: rvm.softwareVersion, machines: count() })
      .from(rvm)
      .where(eq(rvm.licenseAccountId, account))
      .groupBy(rvm.termType, rvm.softwareVersion),
    db.execute(sql`
      select r.term_type as model, count(*)::int as machines from rvm r ${lastDelivery('software')}
      where r.license_account_id = ${account} and last.status in (${FAILED}) group by r.term_type`),
    uploadedPackages(db, account, 'software'),
  ]);
  const newest = newestByModel(packages);
  const failedBy = new Map(rowsOf<{ model: string; machines: number }>(failed).map((row) => [row.model, Number(row.machines)]));
  const models = new Map<string, { model: string; machines: number; behind: number; versions: Array<{ version: string | null; machines: number }> }>();
  for (const row of versions) {
    const entry = models.get(row.model) ?? { model: row.model, machines: 0, behind: 0, versions: [] };
    entry.machines += row.machines;
    entry.versions.push({ version: row.version, machines: row.machines });
    const target = newest.get(row.model);
    if (target && row.version !== target.version) entry.behind += row.machines;
    models.set(row.model, entry);
  }
  return [...models.values()]
    .sort((a, b) => a.model.localeCompare(b.model))
    .map((entry) => ({
      ...entry,
      versions: entry.versions.sort((a, b) => b.machines - a.machines || String(a.version).localeCompare(String(b.version))),
      newestPackage: packageSummary(newest.get(entry.model)),
      lastUpgradeFailed: failedBy.get(entry.model) ?? 0,
    }));
};

const MACHINE_KINDS = ['all', 'version', 'behind', 'failed'] as const;

const softwareMachines = async (
  db: Db,
  account: number,
  query: { model: string; kind: (typeof MACHINE_KINDS)[number]; version?: string | null; pageNum: number; pageSize: number },
) => {
  const conditions: SQL[] = [sql`r.license_account_id = ${account}`, sql`r.term_type = ${query.model}`];
  if (query.kind === 'version') conditions.push(query.version ? sql`r.software_version = ${query.version}` : sql`r.software_version is null`);
  if (query.kind === 'failed') conditions.push(sql`last.status in (${FAILED})`);
  const newest = newestByModel(await uploadedPackages(db, account, 'software')).get(query.model);
  if (query.kind === 'behind') conditions.push(newest ? sql`r.software_version is distinct from ${newest.version}` : sql`false`);
  const where = sql.join(conditions, sql` and `);
  const [rows, totals] = await Promise.all([
    db.execute(sql`
      select r.id, r.term_no, r.serial_number, r.fleet_id, r.software_version, r.online,
        last.deploy_id, last.deployment_id, last.status, last.status_reason, last.finished_time
      from rvm r ${lastDelivery('software')} where ${where}
      order by r.term_no, r.id limit ${query.pageSize} offset ${(query.pageNum - 1) * query.pageSize}`),
    db.execute(sql`select count(*)::int as total from rvm r ${lastDelivery('software')} where ${where}`),
  ]);
  type Row = {
    id: number;
    term_no: string;
    serial_number: string;
    fleet_id: number;
    software_version: string | null;
    online: boolean;
    deploy_id: string | number | null;
    deployment_id: number | null;
    status: string | null;
    status_reason: string | null;
    finished_time: Date | string | null;
  };
  const list = rowsOf<Row>(rows).map((row) => ({
    id: row.id,
    termNo: row.term_no,
    serialNumber: row.serial_number,
    fleetId: row.fleet_id,
    softwareVersion: row.software_version,
    online: row.online,
    lastDelivery:
      row.deploy_id === null
        ? null
        : { deployId: Number(row.deploy_id), deploymentId: row.deployment_id, status: row.status, statusReason: row.status_reason, finishedTime: iso(row.finished_time) },
  }));
  const total = Number(rowsOf<{ total: number }>(totals)[0]?.total ?? 0);
  return { list, total, newestPackage: packageSummary(newest) };
};

export const nullableText = { type: ['string', 'null'] } as const;
export const packageAnswer = {
  type: ['object', 'null'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, version: { type: 'string' }, createTime: { type: 'string' } },
} as const;

export const registerVersionRoutes = (app: TypedApp, { db }: Services) => {
  app.get(
    '/software-versions',
    fleetRoute(
      'deployments',
      'Software versions per machine model: machines per version, behind the newest uploaded software package of the model, last software delivery failed',
      [SOFTWARE_UPGRADE_PERMISSION],
      {},
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            model: { type: 'string' },
            machines: { type: 'integer' },
            behind: { type: 'integer' },
            lastUpgradeFailed: { type: 'integer' },
            newestPackage: packageAnswer,
            versions: { type: 'array', items: { type: 'object', properties: { version: nullableText, machines: { type: 'integer' } } } },
          },
        },
      },
    ),
    async (request) => ok(request, await softwareOverview(db, accountOf(callerOf(request)))),
  );

  app.get(
    '/software-versions/machines',
    fleetRoute(
      'deployments',
      "A model's machines, paged by serial order: all, on one version (none: no version reported), behind the newest package, or whose last software delivery failed",
      [SOFTWARE_UPGRADE_PERMISSION],
      {
        querystring: Type.Object({
          model: Type.String({ minLength: 1, maxLength: 32 }),
          kind: Type.Optional(NullableStringEnum(MACHINE_KINDS)),
          version: Type.Optional(Type.String({ maxLength: 32 })),
          ...PAGE_PROPERTIES,
        }),
      },
    ),
    async (request) => {
      const query = withPaging(request.query);
      const answer = await softwareMachines(db, accountOf(callerOf(request)), { ...query, kind: query.kind ?? 'all' });
      return ok(request, { ...pageOf(answer.list, answer.total, query), newestPackage: answer.newestPackage });
    },
  );

  app.get(
    '/rvm/:id/versions',
    fleetRoute(
      'rvmpage',
      "A machine's version history, newest first: every change of its software version (hello or applied package) and every applied package of another type",
      [PERMISSIONS.overview, PERMISSIONS.profile, SOFTWARE_UPGRADE_PERMISSION],
      {
        params: Type.Object({ id: RowId() }),
        querystring: Type.Object({ ...PAGE_PROPERTIES }),
      },
    ),
    async (request) => {
      const machine = await findMachine(db, callerOf(request), request.params.id);
      const query = withPaging(request.query);
      const where = eq(rvmVersionHistory.rvmId, machine.id);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({ row: rvmVersionHistory, deploymentId: deploymentTarget.deploymentId })
          .from(rvmVersionHistory)
          .leftJoin(deploymentTarget, eq(deploymentTarget.id, rvmVersionHistory.deploymentTargetId))
          .where(where)
          .orderBy(desc(rvmVersionHistory.changedTime), desc(rvmVersionHistory.id))
          .limit(query.pageSize)
          .offset((query.pageNum - 1) * query.pageSize),
        db.select({ total: count() }).from(rvmVersionHistory).where(where),
      ]);
      const list = rows.map(({ row, deploymentId }) => ({
        id: row.id,
        resourceType: row.resourceType,
        version: row.version,
        previousVersion: row.previousVersion,
        source: row.source,
        deployId: row.deploymentTargetId,
        // the deployment that installed it (its page links from the history); null from a hello
        deploymentId,
        changedTime: iso(row.changedTime),
      }));
      return ok(request, { ...pageOf(list, Number(total), query), softwareVersion: machine.softwareVersion });
    },
  );
};

// Service › AI (docs/deployments.md "Versions"): per machine model, its uploaded AI model packages with
// how many machines run each (the last AI package a machine applied), and which machines those are, paged:
// the machines running one package, or running none yet. Everything is the caller's license account's.
import { count, eq, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { findMenuByKey } from '../../resources/menu';
import { callerOf } from '../auth/guard';
import { rowsOf, type Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { fleetRoute, iso, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { RowId, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { accountOf, modelsOf, packageAnswer, packageSummary, uploadedPackages } from './versions';

/** The menu entry of the screen (its own permission, as service › performance's). */
export const AI_PERMISSION = findMenuByKey('ai')!.identifier;

/** Each machine's last applied AI package, with the delivery that applied it (a lateral subquery on `r`). */
const currentAi = sql`
  left join lateral (
    select d.package_id, t.id as deploy_id, t.deployment_id, t.finished_time, p.name as package_name, p.version as package_version
    from deployment_target t join deployment d on d.id = t.deployment_id join deployment_package p on p.id = d.package_id
    where t.rvm_id = r.id and p.resource_type = 'ai' and t.status = 'applied'
    order by t.finished_time desc, t.id desc limit 1
  ) current on true`;

/** Per model: its uploaded AI packages with the machines whose last applied AI package each is. */
const aiOverview = async (db: Db, account: number) => {
  const [machines, running, packages] = await Promise.all([
    db.select({ model: rvm.termType, machines: count() }).from(rvm).where(eq(rvm.licenseAccountId, account)).groupBy(rvm.termType),
    db.execute(sql`
      select r.term_type as model, current.package_id, count(*)::int as machines from rvm r ${currentAi}
      where r.license_account_id = ${account} and current.package_id is not null group by r.term_type, current.package_id`),
    uploadedPackages(db, account, 'ai'),
  ]);
  const runningBy = new Map(rowsOf<{ model: string; package_id: number; machines: number }>(running).map((row) => [`${row.model}/${row.package_id}`, Number(row.machines)]));
  const models = new Set([...machines.map((row) => row.model), ...packages.flatMap((item) => modelsOf(item.adaptedModels))]);
  return [...models].sort().map((model) => ({
    model,
    machines: machines.find((row) => row.model === model)?.machines ?? 0,
    packages: packages
      .filter((item) => modelsOf(item.adaptedModels).includes(model))
      .map((item) => ({ ...packageSummary(item)!, machines: runningBy.get(`${model}/${item.id}`) ?? 0 })),
  }));
};

/** A model's machines running one AI package (`packageId`), or none yet (no `packageId`), by RVM number. */
const aiMachines = async (db: Db, account: number, query: { model: string; packageId?: number; pageNum: number; pageSize: number }) => {
  const conditions: SQL[] = [
    sql`r.license_account_id = ${account}`,
    sql`r.term_type = ${query.model}`,
    query.packageId === undefined ? sql`current.package_id is null` : sql`current.package_id = ${query.packageId}`,
  ];
  const where = sql.join(conditions, sql` and `);
  const [rows, totals] = await Promise.all([
    db.execute(sql`
      select r.id, r.term_no, r.serial_number, r.fleet_id, r.online,
        current.package_id, current.package_name, current.package_version, current.deploy_id, current.deployment_id, current.finished_time
      from rvm r ${currentAi} where ${where}
      order by r.term_no, r.id limit ${query.pageSize} offset ${(query.pageNum - 1) * query.pageSize}`),
    db.execute(sql`select count(*)::int as total from rvm r ${currentAi} where ${where}`),
  ]);
  type Row = {
    id: number;
    term_no: string;
    serial_number: string;
    fleet_id: number;
    online: boolean;
    package_id: number | null;
    package_name: string | null;
    package_version: string | null;
    deploy_id: string | number | null;
    deployment_id: number | null;
    finished_time: Date | string | null;
  };
  const list = rowsOf<Row>(rows).map((row) => ({
    id: row.id,
    termNo: row.term_no,
    serialNumber: row.serial_number,
    fleetId: row.fleet_id,
    online: row.online,
    aiPackage:
      row.package_id === null
        ? null
        : {
            id: row.package_id,
            name: row.package_name,
            version: row.package_version,
            deployId: Number(row.deploy_id),
            deploymentId: row.deployment_id,
            appliedTime: iso(row.finished_time),
          },
  }));
  return { list, total: Number(rowsOf<{ total: number }>(totals)[0]?.total ?? 0) };
};

export const registerAiRoutes = (app: TypedApp, { db }: Services) => {
  app.get(
    '/ai-models',
    fleetRoute(
      'deployments',
      'AI model packages per machine model, with the machines whose last applied AI package each is',
      [AI_PERMISSION],
      {},
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            model: { type: 'string' },
            machines: { type: 'integer' },
            packages: { type: 'array', items: { type: 'object', properties: { ...packageAnswer.properties, machines: { type: 'integer' } } } },
          },
        },
      },
    ),
    async (request) => ok(request, await aiOverview(db, accountOf(callerOf(request)))),
  );

  app.get(
    '/ai-models/machines',
    fleetRoute(
      'deployments',
      "A model's machines whose last applied AI package is `packageId` (none given: machines running no AI package yet), paged by RVM number, each with that package and the deployment that installed it",
      [AI_PERMISSION],
      {
        querystring: Type.Object({
          model: Type.String({ minLength: 1, maxLength: 32 }),
          packageId: Type.Optional(RowId()),
          ...PAGE_PROPERTIES,
        }),
      },
    ),
    async (request) => {
      const query = withPaging(request.query);
      const answer = await aiMachines(db, accountOf(callerOf(request)), query);
      return ok(request, pageOf(answer.list, answer.total, query));
    },
  );
};

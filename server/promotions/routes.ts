// Promotion › promotionDeployment (docs/promotions.md#deploying): an option (or the default promotion alone)
// becomes a package of resource type `promotion` (packageFromContent) and a deployment of the deployments
// engine (waves, statuses, the deployment page); machines report `applied` for it, and what each machine shows
// is its last applied promotion package. Everything is the caller's license account's.
import { sql } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { FAILED_DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import { PROMOTION_DEPLOYMENT_PERMISSION } from '../../resources/promotions';
import { callerOf } from '../auth/guard';
import { rowsOf, type Db } from '../db/client';
import { createDeployment } from '../deployments/create';
import { packageFromContentWith } from '../deployments/packageFromContent';
import { tallyCount } from '../deployments/tally';
import { accountOf, fleetRoute, iso, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { AppError } from '../lib/errors';
import { ok } from '../lib/envelope';
import { RowId, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { promotionArchive, promotionManifest } from './content';

const route = <Schema extends FastifySchema>(summary: string, permissions: readonly string[], schema: Schema) => fleetRoute('promotion', summary, permissions, schema);

const DEPLOY_BODY = StrictObject({
  optionId: Type.Optional(RowId({ description: 'The option to deploy; absent: the default promotion alone' })),
  fleetIds: Type.Optional(Type.Array(RowId(), { minItems: 1, maxItems: 200, description: "Instead of the option's fleets" })),
  models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 50, description: "Instead of the option's models" })),
});

/** Each machine's last applied promotion package (a lateral subquery on `r`): what its screen shows. */
const shownPromotion = sql`
  left join lateral (
    select p.id as package_id, p.name as package_name, p.version, t.deployment_id, t.finished_time
    from deployment_target t join deployment d on d.id = t.deployment_id join deployment_package p on p.id = d.package_id
    where t.rvm_id = r.id and p.resource_type = 'promotion' and t.status = 'applied'
    order by t.finished_time desc, t.id desc limit 1
  ) shown on true`;

const accountModels = async (db: Db, account: number): Promise<string[]> =>
  rowsOf<{ term_type: string }>(await db.execute(sql`select distinct term_type from rvm where license_account_id = ${account} order by term_type`)).map((row) => row.term_type);

const optionFleets = async (db: Db, optionId: number): Promise<number[]> =>
  rowsOf<{ fleet_id: number }>(await db.execute(sql`select fleet_id from promotion_option_fleet where option_id = ${optionId} order by fleet_id`)).map((row) => row.fleet_id);

const stamp = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);

export const registerPromotionRoutes = (app: TypedApp, services: Services) => {
  const { db, models } = services;

  app.post(
    '/promotion/deploy',
    route(
      'Deploy a promotion option (or the default promotion alone) to its fleets or models: a promotion package and a deployment; also needs deploymentPackage:add and deployment:add',
      [PROMOTION_DEPLOYMENT_PERMISSION],
      { body: DEPLOY_BODY },
    ),
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      await caller.require(['deployment:add']);
      if (!services.fileStorage) throw new AppError('9602');
      const { manifest, option, media } = await promotionManifest(db, account, request.body.optionId);
      const fleetIds = request.body.fleetIds ?? (option ? await optionFleets(db, option.id) : []);
      const optionModels = option?.models
        ? option.models
            .split(',')
            .map((model) => model.trim())
            .filter(Boolean)
        : [];
      const chosenModels = request.body.models ?? optionModels;
      const allModels = await accountModels(db, account);
      // nothing chosen: every machine of the account (docs/promotions.md#deploying)
      const targets =
        fleetIds.length || chosenModels.length ? { ...(fleetIds.length ? { fleetIds } : {}), ...(chosenModels.length ? { models: chosenModels } : {}) } : { models: allModels };
      if (!targets.models?.length && !targets.fleetIds?.length) throw new AppError('8203', { resData: { excludedCounts: {} } });
      const now = new Date();
      const version = `${option ? `o${option.id}` : 'default'}-${stamp(now)}`;
      // the package and its deployment are made together: a deployment refused (no machine targeted: 8203 …) leaves no package behind
      const { row: pkg, next: created } = await packageFromContentWith(
        { db, fileStorage: services.fileStorage, models, log: request.log },
        caller,
        {
          name: `${(option?.name ?? 'default').slice(0, 40)} ${stamp(now)}`,
          resourceType: 'promotion',
          version,
          adaptedModels: (chosenModels.length && !fleetIds.length ? chosenModels : allModels).join(',') || 'none',
          fileName: `promotion-${version}.tar`,
          content: await promotionArchive(services.fileStorage, manifest, media),
        },
        (tx, row) => createDeployment(tx, models, caller, account, { packageId: row.id, targets, waves: [100] }, { singleSession: services.database.kind === 'pglite' }),
      );
      return ok(request, { deploymentId: created.id, packageId: pkg.id, version, targeted: created.targeted, excludedCounts: created.excludedCounts });
    },
  );

  app.get('/promotion/deployments', route('The latest deployments of promotion packages, with their progress', [PROMOTION_DEPLOYMENT_PERMISSION], {}), async (request) => {
    const account = accountOf(callerOf(request));
    const rows = rowsOf<{ id: number; name: string; version: string; status: string; created_time: Date | string; total: number; applied: number; failed: number }>(
      await db.execute(sql`
          select d.id, p.name, p.version, d.status, d.created_time,
            ${tallyCount(sql`d.id`)} as total, ${tallyCount(sql`d.id`, ['applied'])} as applied,
            ${tallyCount(sql`d.id`, FAILED_DELIVERY_STATUSES)} as failed
          from deployment d join deployment_package p on p.id = d.package_id
          where d.license_account_id = ${account} and p.resource_type = 'promotion'
          order by d.created_time desc, d.id desc limit 20`),
    );
    return ok(
      request,
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        version: row.version,
        status: row.status,
        createdTime: iso(row.created_time),
        total: row.total,
        applied: row.applied,
        failed: row.failed,
      })),
    );
  });

  app.post(
    '/promotion/showing',
    route('Which promotion each machine shows (its last applied promotion package), paged by RVM number', [PROMOTION_DEPLOYMENT_PERMISSION], {
      body: StrictObject({ ...PAGE_PROPERTIES, termNoLike: Type.Optional(Type.String({ maxLength: 32 })) }),
    }),
    async (request) => {
      const account = accountOf(callerOf(request));
      const body = withPaging(request.body);
      const like = body.termNoLike ? sql` and r.term_no ilike ${`%${body.termNoLike.replace(/[\\%_]/g, '\\$&')}%`}` : sql``;
      const [rows, totals] = await Promise.all([
        db.execute(sql`
          select r.id, r.term_no, r.term_type, r.fleet_id, r.online, shown.package_id, shown.package_name, shown.version, shown.deployment_id, shown.finished_time
          from rvm r ${shownPromotion} where r.license_account_id = ${account}${like}
          order by r.term_no, r.id limit ${body.pageSize} offset ${(body.pageNum - 1) * body.pageSize}`),
        db.execute(sql`select count(*)::int as total from rvm r where r.license_account_id = ${account}${like}`),
      ]);
      type Row = {
        id: number;
        term_no: string;
        term_type: string;
        fleet_id: number;
        online: boolean;
        package_id: number | null;
        package_name: string | null;
        version: string | null;
        deployment_id: number | null;
        finished_time: Date | string | null;
      };
      const list = rowsOf<Row>(rows).map((row) => ({
        id: row.id,
        termNo: row.term_no,
        termType: row.term_type,
        fleetId: row.fleet_id,
        online: row.online,
        shown:
          row.package_id === null
            ? null
            : { packageId: row.package_id, name: row.package_name, version: row.version, deploymentId: row.deployment_id, appliedTime: iso(row.finished_time) },
      }));
      return ok(request, pageOf(list, Number(rowsOf<{ total: number }>(totals)[0]?.total ?? 0), body));
    },
  );
};

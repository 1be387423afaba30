// Personnel and ban list packages (docs/service-personnel.md#packages): the account's enabled service personnel
// with their salted password hashes and both access levels' settings, or the bans not yet ended, turned into a
// deployment package by packageFromContent and then deployed by the deployments engine like any other package.
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { findMenuByKey } from '../../resources/menu';
import { consumerBan as banDeclaration } from '../../resources/consumerBan';
import { BAN_LIST_FORMAT, PERSONNEL_FORMAT, type BanListPackage, type PersonnelPackage } from '../../resources/personnelContent';
import { DEFAULT_LEVEL_ACTIONS, DEFAULT_SIGN_OUT_MINUTES, SERVICE_ACTIONS, type AccessLevel } from '../../resources/servicePersonnel';
import { callerOf } from '../auth/guard';
import type { Db } from '../db/client';
import { deployment, deploymentPackage } from '../db/schema/deployments';
import { rvm } from '../db/schema/fleet';
import { consumerBan, personnelAccessLevel, servicePersonnel } from '../db/schema/personnel';
import { packageFromContent, type PackageRow } from '../deployments/packageFromContent';
import { tallyCount } from '../deployments/tally';
import { accountOf } from '../deployments/versions';
import { fleetRoute, iso } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

export const PACKAGE_PERMISSION = findMenuByKey('createServicePersonnelPackage')!.identifier;
export const DEPLOY_PERMISSION = findMenuByKey('personnalDeploy')!.identifier;
const BAN_PACKAGE_PERMISSION = 'consumerBan:package';
const PACKAGE_TYPES = ['personnel', 'banList'] as const;

/** Each level's settings: the account's saved ones, else the defaults (docs/service-personnel.md#access-levels). */
const levelsOf = async (db: Db, account: number): Promise<PersonnelPackage['levels']> => {
  const rows = await db.select().from(personnelAccessLevel).where(eq(personnelAccessLevel.licenseAccountId, account));
  const entry = (level: AccessLevel) => {
    const row = rows.find((candidate) => candidate.level === level);
    const actions = row ? row.actions.split(',').map((action) => action.trim()) : [...DEFAULT_LEVEL_ACTIONS[level]];
    return { actions: SERVICE_ACTIONS.filter((action) => actions.includes(action)), signOutMinutes: row?.signOutMinutes ?? DEFAULT_SIGN_OUT_MINUTES };
  };
  return { normal: entry('normal'), advanced: entry('advanced') };
};

const enabledPersonnel = (db: Db, account: number) =>
  db
    .select()
    .from(servicePersonnel)
    .where(and(eq(servicePersonnel.licenseAccountId, account), eq(servicePersonnel.enabled, true)))
    .orderBy(asc(servicePersonnel.loginName));

/** The models of the account's machines, comma-separated: what a package is adapted to unless the operator says. */
const accountModels = async (db: Db, account: number) =>
  (await db.selectDistinct({ model: rvm.termType }).from(rvm).where(eq(rvm.licenseAccountId, account)).orderBy(rvm.termType)).map((row) => row.model).filter(Boolean);

/** `20261128.051530`: a version that sorts by time and satisfies the package version pattern. */
const stamp = (now: Date) => now.toISOString().replace(/[-:]/g, '').replace('T', '.').slice(0, 15);

const packageAnswer = (row: PackageRow) => ({ id: row.id, name: row.name, version: row.version, resourceType: row.resourceType, adaptedModels: row.adaptedModels });

const PACKAGE_BODY = {
  name: Type.Optional(Type.String({ maxLength: 64 })),
  version: Type.Optional(Type.String({ maxLength: 32 })),
  adaptedModels: Type.Optional(Type.String({ maxLength: 500 })),
  description: Type.Optional(Type.String({ maxLength: 500 })),
};

export const registerPersonnelRoutes = (app: TypedApp, services: Services) => {
  const { db } = services;
  const deps = (log: Parameters<typeof packageFromContent>[0]['log']) => ({ db, fileStorage: services.fileStorage, models: services.models, log });

  app.get(
    '/personnel-package/preview',
    fleetRoute('personnel', 'What a personnel package would hold now: the enabled people (no hashes), both levels, the default models', [PACKAGE_PERMISSION], {}),
    async (request) => {
      const account = accountOf(callerOf(request));
      const [people, levels, models] = await Promise.all([enabledPersonnel(db, account), levelsOf(db, account), accountModels(db, account)]);
      const now = new Date();
      return ok(request, {
        personnel: people.map(({ loginName, realName, accessLevel, company }) => ({ loginName, realName, accessLevel, company })),
        levels,
        defaults: { name: `Service personnel ${stamp(now)}`, version: stamp(now), adaptedModels: models.join(',') },
      });
    },
  );

  app.post(
    '/personnel-package',
    fleetRoute('personnel', 'Makes a personnel package (hashes only) of the enabled people; 9700 when there is none', [PACKAGE_PERMISSION], { body: StrictObject(PACKAGE_BODY) }),
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const [people, levels, models] = await Promise.all([enabledPersonnel(db, account), levelsOf(db, account), accountModels(db, account)]);
      if (people.length === 0) throw new AppError('9700');
      const content: PersonnelPackage = {
        format: PERSONNEL_FORMAT,
        version: 1,
        levels,
        personnel: people.map((person) => ({
          loginName: person.loginName,
          realName: person.realName,
          accessLevel: person.accessLevel as AccessLevel,
          company: person.company,
          passwordHash: person.password,
        })),
      };
      const now = new Date();
      const version = request.body.version?.trim() || stamp(now);
      const row = await packageFromContent(deps(request.log), caller, {
        name: request.body.name?.trim() || `Service personnel ${version}`,
        resourceType: 'personnel',
        version,
        adaptedModels: request.body.adaptedModels?.trim() || models.join(','),
        description: request.body.description?.trim() || undefined,
        fileName: `personnel-${version}.json`,
        content: JSON.stringify(content),
      });
      return ok(request, { ...packageAnswer(row), people: people.length });
    },
  );

  app.post(
    `${banDeclaration.apiPath}/package`,
    fleetRoute('personnel', 'Makes a ban list package of the bans not yet ended (an empty list lifts every ban)', [BAN_PACKAGE_PERMISSION], { body: StrictObject(PACKAGE_BODY) }),
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const now = new Date();
      const [bans, models] = await Promise.all([
        db
          .select()
          .from(consumerBan)
          .where(and(eq(consumerBan.licenseAccountId, account), gt(consumerBan.endTime, now)))
          .orderBy(asc(consumerBan.id)),
        accountModels(db, account),
      ]);
      const content: BanListPackage = {
        format: BAN_LIST_FORMAT,
        version: 1,
        bans: bans.map((ban) => ({
          consumerKind: ban.consumerKind as BanListPackage['bans'][number]['consumerKind'],
          consumerId: ban.consumerId,
          reason: ban.reason,
          startTime: ban.startTime.toISOString(),
          endTime: ban.endTime.toISOString(),
        })),
      };
      const version = request.body.version?.trim() || stamp(now);
      const row = await packageFromContent(deps(request.log), caller, {
        name: request.body.name?.trim() || `Ban list ${version}`,
        resourceType: 'banList',
        version,
        adaptedModels: request.body.adaptedModels?.trim() || models.join(','),
        description: request.body.description?.trim() || undefined,
        fileName: `ban-list-${version}.json`,
        content: JSON.stringify(content),
      });
      return ok(request, { ...packageAnswer(row), bans: bans.length });
    },
  );

  app.get(
    '/personnel-deploy',
    fleetRoute('personnel', 'Personnel and ban list packages, newest first, each with its latest deployment and its counts', [DEPLOY_PERMISSION], {}),
    async (request) => {
      const account = accountOf(callerOf(request));
      const packages = await db
        .select()
        .from(deploymentPackage)
        .where(and(eq(deploymentPackage.licenseAccountId, account), inArray(deploymentPackage.resourceType, [...PACKAGE_TYPES])))
        .orderBy(desc(deploymentPackage.createTime), desc(deploymentPackage.id))
        .limit(100);
      const ids = packages.map((row) => row.id);
      const latest = ids.length
        ? await db
            .selectDistinctOn([deployment.packageId], {
              packageId: deployment.packageId,
              id: deployment.id,
              status: deployment.status,
              createdTime: deployment.createdTime,
              total: tallyCount(sql`"deployment"."id"`),
              applied: tallyCount(sql`"deployment"."id"`, ['applied']),
            })
            .from(deployment)
            .where(and(eq(deployment.licenseAccountId, account), inArray(deployment.packageId, ids)))
            .orderBy(deployment.packageId, desc(deployment.createdTime), desc(deployment.id))
        : [];
      return ok(
        request,
        packages.map((row) => {
          const last = latest.find((candidate) => candidate.packageId === row.id);
          return {
            ...packageAnswer(row),
            createTime: iso(row.createTime),
            latestDeployment: last ? { id: last.id, status: last.status, createdTime: iso(last.createdTime), total: Number(last.total), applied: Number(last.applied) } : null,
          };
        }),
      );
    },
  );
};

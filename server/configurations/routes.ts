// The versions of every configuration kind (docs/machine-configuration.md "Versions"), one set of routes per
// kind under its declaration's API path, each guarded by that declaration's list permission: the versions
// list, one version's items, the diff of two versions, and a version made into a package (which also needs
// `deploymentPackage:add`, checked by packageFromContent). Another account's versions do not exist (2003).
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { Type } from 'typebox';
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import { CONFIGURATION_FORMAT, diffConfigurations, type ConfigurationContent, type ConfigurationItem, type ConfigurationKind } from '../../resources/machineConfiguration';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { deploymentPackage } from '../db/schema/deployments';
import { configurationVersion } from '../db/schema/machineConfiguration';
import { packageFromContent } from '../deployments/packageFromContent';
import { fleetRoute, iso, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { Nullable, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

const VERSION = Type.Integer({ minimum: 1, maximum: 2147483647 });

const accountOf = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('2003');
  return caller.principal.licenseAccountId;
};

const findVersion = async (db: Db, caller: Caller, resource: string, version: number) => {
  const [row] = await db
    .select()
    .from(configurationVersion)
    .where(and(eq(configurationVersion.licenseAccountId, accountOf(caller)), eq(configurationVersion.resource, resource), eq(configurationVersion.version, version)))
    .limit(1);
  if (!row) throw new AppError('2003');
  return row;
};

/** What a machine receives (docs/machine-protocol.md "Configuration packages"). */
export const configurationContent = (kind: ConfigurationKind, version: number, items: ConfigurationItem[]): ConfigurationContent => ({
  format: CONFIGURATION_FORMAT,
  v: 1,
  kind: kind.declaration.name,
  resourceType: kind.resourceType,
  version,
  items,
});

const PACKAGE_BODY = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  version: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Default: v<version>' })),
  adaptedModels: Type.String({ minLength: 1, maxLength: 500 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  activationTime: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
});

const registerKind = (app: TypedApp, services: Services, kind: ConfigurationKind) => {
  const { db } = services;
  const { name, apiPath, permissions } = kind.declaration;
  const tag = 'configurations';
  const readable = [permissions.page ?? `${name}:page`];

  app.get(
    `${apiPath}/versions`,
    fleetRoute(tag, `The saved versions of the ${name} configuration, newest first`, readable, { querystring: Type.Object({ ...PAGE_PROPERTIES }) }),
    async (request) => {
      const caller = callerOf(request);
      const body = withPaging(request.query);
      const where = and(eq(configurationVersion.licenseAccountId, accountOf(caller)), eq(configurationVersion.resource, name));
      const rows = await db
        .select({
          id: configurationVersion.id,
          version: configurationVersion.version,
          itemCount: configurationVersion.itemCount,
          createdBy: configurationVersion.createdBy,
          createdByName: configurationVersion.createdByName,
          createTime: configurationVersion.createTime,
          packageId: configurationVersion.packageId,
          packageName: deploymentPackage.name,
        })
        .from(configurationVersion)
        .leftJoin(deploymentPackage, eq(deploymentPackage.id, configurationVersion.packageId))
        .where(where)
        .orderBy(desc(configurationVersion.version))
        .limit(body.pageSize)
        .offset((body.pageNum - 1) * body.pageSize);
      const [{ total }] = await db.select({ total: count() }).from(configurationVersion).where(where);
      return ok(
        request,
        pageOf(
          rows.map((row) => ({ ...row, createTime: iso(row.createTime) })),
          total,
          body,
        ),
      );
    },
  );

  app.get(
    `${apiPath}/versions/:version`,
    fleetRoute(tag, `One saved version of the ${name} configuration with its items`, readable, { params: Type.Object({ version: VERSION }) }),
    async (request) => {
      const row = await findVersion(db, callerOf(request), name, request.params.version);
      return ok(request, {
        version: row.version,
        itemCount: row.itemCount,
        items: row.items,
        createdByName: row.createdByName,
        createTime: iso(row.createTime),
        packageId: row.packageId,
      });
    },
  );

  app.get(
    `${apiPath}/diff`,
    fleetRoute(tag, `What changed in the ${name} configuration from one saved version to another, item by item`, readable, {
      querystring: Type.Object({ from: VERSION, to: VERSION }),
    }),
    async (request) => {
      const caller = callerOf(request);
      const rows = await db
        .select({ version: configurationVersion.version, items: configurationVersion.items })
        .from(configurationVersion)
        .where(
          and(
            eq(configurationVersion.licenseAccountId, accountOf(caller)),
            eq(configurationVersion.resource, name),
            inArray(configurationVersion.version, [request.query.from, request.query.to]),
          ),
        );
      const itemsOf = (version: number) => {
        const row = rows.find((candidate) => candidate.version === version);
        if (!row) throw new AppError('2003');
        return row.items as ConfigurationItem[];
      };
      const { from, to } = request.query;
      return ok(request, { from, to, ...diffConfigurations(kind.declaration, itemsOf(from), itemsOf(to)) });
    },
  );

  app.post(
    `${apiPath}/versions/:version/package`,
    fleetRoute(tag, `Makes a saved version of the ${name} configuration into a package (also needs deploymentPackage:add)`, readable, {
      params: Type.Object({ version: VERSION }),
      body: PACKAGE_BODY,
    }),
    async (request) => {
      const caller = callerOf(request);
      const row = await findVersion(db, caller, name, request.params.version);
      const content = configurationContent(kind, row.version, row.items as ConfigurationItem[]);
      const { body } = request;
      const created = await packageFromContent({ db, fileStorage: services.fileStorage, models: services.models, log: request.log }, caller, {
        name: body.name,
        resourceType: kind.resourceType,
        version: body.version ?? `v${row.version}`,
        adaptedModels: body.adaptedModels,
        description: body.description ?? undefined,
        activationTime: body.activationTime ? new Date(body.activationTime) : null,
        fileName: `${name}-v${row.version}.json`,
        content: JSON.stringify(content, null, 2),
      });
      await db.update(configurationVersion).set({ packageId: created.id }).where(eq(configurationVersion.id, row.id));
      return ok(request, { id: created.id, name: created.name, version: created.version, resourceType: created.resourceType, adaptedModels: created.adaptedModels });
    },
  );
};

export const registerConfigurationRoutes = (app: TypedApp, services: Services) => {
  for (const kind of Object.values(CONFIGURATION_KINDS)) registerKind(app, services, kind);
};

// The template store's own calls (docs/machine-configuration.md#generate-config-file), under the template
// declaration's API path beside the engine's generic ones: a content replaced by its id (through the engine's
// write path: validation, the JSON check, the audit entry), the generated file's preview, and the generated
// file made into a package of type `config` (which also needs `deploymentPackage:add`, checked by
// packageFromContent). Another account's template or a content id the template lacks does not exist (2003).
import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { CONFIG_CONTENT_FORMATS, CONFIG_CONTENT_MAX_LENGTH, CONFIG_FILE_RESOURCE_TYPE, configTemplate, configTemplateContent } from '../../resources/configTemplates';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import { readOne } from '../crud/records';
import { updateRecord } from '../crud/write';
import { configTemplateContent as contentTable } from '../db/schema/configTemplates';
import { packageFromContent } from '../deployments/packageFromContent';
import { fleetRoute } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { Nullable, RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { findTemplate, generateConfigFile, KIND_NAMES } from './generate';

const TAG = 'configurations';

const accountOf = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('2003');
  return caller.principal.licenseAccountId;
};

const KINDS = Type.Optional(
  Type.Array(StringEnum(KIND_NAMES), {
    uniqueItems: true,
    maxItems: KIND_NAMES.length,
    description: 'Configuration kinds to include (default: all); a kind with no saved version is left out',
  }),
);

const GENERATE_BODY = StrictObject({ templateId: RowId(), kinds: KINDS });

const PACKAGE_BODY = StrictObject({
  templateId: RowId(),
  kinds: KINDS,
  name: Type.String({ minLength: 1, maxLength: 64 }),
  version: Type.String({ minLength: 1, maxLength: 32 }),
  adaptedModels: Type.String({ minLength: 1, maxLength: 500 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  activationTime: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
});

const REPLACE_PARAMS = Type.Object({ templateId: RowId(), contentId: Type.String({ minLength: 1, maxLength: 64 }) });
const REPLACE_BODY = StrictObject({
  body: Type.String({ maxLength: CONFIG_CONTENT_MAX_LENGTH }),
  format: Type.Optional(StringEnum(CONFIG_CONTENT_FORMATS)),
});

export const registerConfigTemplateRoutes = (app: TypedApp, services: Services) => {
  const { db, models } = services;
  const { apiPath, permissions } = configTemplate;
  const readable = [permissions.page];

  app.put(
    `${apiPath}/:templateId/contents/:contentId`,
    fleetRoute(TAG, "Replaces one content of a template, found by its content id, with a new body (the engine's validation and audit entry)", [permissions.edit], {
      params: REPLACE_PARAMS,
      body: REPLACE_BODY,
    }),
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const template = await findTemplate(db, account, request.params.templateId);
      const [row] = await db
        .select({ id: contentTable.id })
        .from(contentTable)
        .where(and(eq(contentTable.templateId, template.id), eq(contentTable.licenseAccountId, account), eq(contentTable.contentId, request.params.contentId)))
        .limit(1);
      if (!row) throw new AppError('2003');
      const model = models.get(configTemplateContent.name);
      if (!model) throw new AppError('2003');
      const { body, format } = request.body;
      await updateRecord({ db, models, fileStorage: services.fileStorage }, caller, model, { id: row.id, body, ...(format ? { format } : {}) });
      return ok(request, await readOne(db, model, caller, row.id));
    },
  );

  app.post(
    `${apiPath}/generate`,
    fleetRoute(TAG, "Previews the config file a template generates: its contents in order, then each configuration kind's latest version", readable, {
      body: GENERATE_BODY,
    }),
    async (request) => ok(request, await generateConfigFile(db, accountOf(callerOf(request)), request.body.templateId, request.body.kinds)),
  );

  app.post(
    `${apiPath}/generate/package`,
    fleetRoute(TAG, 'Makes the config file a template generates into a package of type config (also needs deploymentPackage:add)', readable, {
      body: PACKAGE_BODY,
    }),
    async (request) => {
      const caller = callerOf(request);
      const { body } = request;
      const generated = await generateConfigFile(db, accountOf(caller), body.templateId, body.kinds);
      const created = await packageFromContent({ db, fileStorage: services.fileStorage, models, log: request.log }, caller, {
        name: body.name,
        resourceType: CONFIG_FILE_RESOURCE_TYPE,
        version: body.version,
        adaptedModels: body.adaptedModels,
        description: body.description ?? undefined,
        activationTime: body.activationTime ? new Date(body.activationTime) : null,
        fileName: generated.fileName,
        content: generated.content,
      });
      return ok(request, { id: created.id, name: created.name, version: created.version, resourceType: created.resourceType, adaptedModels: created.adaptedModels });
    },
  );
};

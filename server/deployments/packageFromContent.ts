// A package made by the server from content it holds (a configuration's version, a generated config file …)
// rather than from a file an operator uploaded (docs/deployments.md "Packages from content"). One transaction:
// the bytes' uploaded_file row (marked saved: the package holds it), the deployment_package row and the audit
// entry the engine writes for a created package, and optionally what the caller makes of it (packageFromContentWith).
// The bytes are stored first; a failed transaction removes them.
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { deploymentPackage as packageDeclaration, type ResourceType } from '../../resources/deploymentPackage';
import { fileLimitsOf } from '../../resources/files';
import { validateRecord } from '../../resources/validation';
import { recordWrite } from '../audit/record';
import type { Caller } from '../auth/principal';
import { uniqueViolation } from '../crud/integrity';
import type { ModelRegistry } from '../crud/model';
import type { Db } from '../db/client';
import { deploymentPackage } from '../db/schema/deployments';
import { uploadedFile } from '../db/schema/files';
import type { FileStorage } from '../files/storage';
import { cleanFileName, storeUpload } from '../files/upload';
import { AppError, invalid } from '../lib/errors';

export type PackageRow = typeof deploymentPackage.$inferSelect;

export interface PackageFromContentDeps {
  db: Db;
  fileStorage?: FileStorage;
  models: ModelRegistry;
  log: FastifyBaseLogger;
}

export interface PackageContent {
  /** 1–64 characters, unique in the caller's license account (2002 naming `name` otherwise). */
  name: string;
  resourceType: ResourceType;
  /** Letters, digits, `.`, `_`, `-` (what the machine reports once applied). */
  version: string;
  /** Machine models, comma-separated. */
  adaptedModels: string;
  description?: string;
  activationTime?: Date | null;
  /** The stored file's name (its download name), e.g. `refund-3.json`. */
  fileName: string;
  content: Buffer | string;
}

/**
 * Stores `content` as a new package of the caller's license account. Checks `deploymentPackage:add` (4003),
 * the package fields as the declaration does (100x with field issues), the file limits of its file field
 * (9600 / 9601). Answers the package row.
 */
export const packageFromContent = async (deps: PackageFromContentDeps, caller: Caller, content: PackageContent): Promise<PackageRow> =>
  (await packageFromContentWith(deps, caller, content, async () => null)).row;

/**
 * packageFromContent, and `next` in the same transaction (e.g. the package's deployment): when `next` fails the
 * package, its file row, its audit entry and its stored bytes are gone too, so nothing is left half-made.
 */
export const packageFromContentWith = async <T>(
  deps: PackageFromContentDeps,
  caller: Caller,
  content: PackageContent,
  next: (tx: Db, row: PackageRow) => Promise<T>,
): Promise<{ row: PackageRow; next: T }> => {
  await caller.require([packageDeclaration.permissions.create]);
  const account = caller.principal.licenseAccountId;
  if (account === null) throw new AppError('5001');
  if (!deps.fileStorage) throw new AppError('9602');
  const fields = {
    name: content.name,
    resourceType: content.resourceType,
    version: content.version,
    adaptedModels: content.adaptedModels,
    ...(content.description ? { description: content.description } : {}),
    ...(content.activationTime ? { activationTime: content.activationTime.toISOString() } : {}),
  };
  const issues = validateRecord(packageDeclaration, fields, 'create');
  if (issues.length) throw invalid(issues);
  const bytes = typeof content.content === 'string' ? Buffer.from(content.content, 'utf8') : content.content;
  const storage = deps.fileStorage;
  let storedKeys: string[] = [];
  try {
    return await deps.db.transaction(async (tx) => {
      const file = await storeUpload(tx, storage, deps.log, {
        source: Readable.from([bytes]),
        declaredBytes: bytes.length,
        limits: fileLimitsOf(packageDeclaration.fields.file),
        name: cleanFileName(content.fileName),
        licenseAccountId: account,
        uploadedBy: caller.userId,
        thumbnail: false,
      });
      storedKeys = [file.storageKey];
      // the package holds it from the start: never an unsaved upload for the sweep (server/files/cleanup.ts)
      await tx.update(uploadedFile).set({ saved: true }).where(eq(uploadedFile.id, file.id));
      const now = new Date();
      const [row] = await tx
        .insert(deploymentPackage)
        .values({
          licenseAccountId: account,
          name: content.name,
          resourceType: content.resourceType,
          version: content.version,
          adaptedModels: content.adaptedModels,
          activationTime: content.activationTime ?? null,
          description: content.description ?? null,
          file: file.id,
          creator: caller.userId,
          createTime: now,
          lastEditor: null,
          updateTime: now,
        })
        .returning();
      // as server/crud/write.ts writes a created package: the fields given, the file by id
      await recordWrite(tx, {
        caller,
        resource: packageDeclaration.name,
        action: 'create',
        recordId: row.id,
        after: { ...fields, file: file.id },
        secretFields: [],
      });
      return { row, next: await next(tx, row) };
    });
  } catch (error) {
    for (const key of storedKeys) await storage.delete(key).catch((cause: unknown) => deps.log.warn({ err: cause, key }, 'a package from content left its bytes behind'));
    const model = deps.models.get(packageDeclaration.name);
    throw (model && uniqueViolation(model, error, fields, caller.locale)) || error;
  }
};

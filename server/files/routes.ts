// Uploaded files (docs/files.md "Routes"): upload as a raw body stream (never held in memory whole),
// download with byte ranges, thumbnails, metadata. Uploading needs the create or edit permission of the
// resource whose field the file is for (the field's limits apply); everything else needs only that the
// file belongs to the caller's current license account (another account's: 2003, as if it did not exist).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import { Type } from 'typebox';
import { fileLimitsOf, isFileKind } from '../../resources/files';
import type { FieldDeclaration, ResourceDeclaration } from '../../resources/types';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import { uploadedFile } from '../db/schema';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError, invalidField } from '../lib/errors';
import { FileAnswer, RowId, typedApp, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { createFileStorage, type ByteRange, type FileStorage } from './storage';
import { FILE_SWEEP_JOB, fileColumnsOf, sweepUnsavedFiles } from './cleanup';
import { cleanFileName, storeUpload, toFileInfo, type UploadedFileRow } from './upload';

export const FILE_INFO = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    mimeType: { type: 'string' },
    size: { type: 'integer' },
    sha256: { type: 'string', description: 'hex SHA-256 of the bytes' },
    hasThumbnail: { type: 'boolean' },
    createdTime: { type: 'string', format: 'date-time' },
  },
};

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range; anything else is answered whole). 'unsatisfiable': 416. */
/** A query value before the route's schema has run (onRequest: the permission before the body is read). */
const rawQueryValue = (query: unknown, key: string): unknown => (typeof query === 'object' && query !== null ? Reflect.get(query, key) : undefined);

export const parseRange = (header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined => {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [start, end] = match[1] === '' ? [Math.max(0, size - Number(match[2])), size - 1] : [Number(match[1]), match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)];
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
};

const attachmentHeader = (name: string) => {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

/**
 * The resource an upload is for (a code-declared resource or a configured type), once the caller holds its
 * create or edit permission. An unknown resource is refused like one the caller may not use (4003): nothing
 * is learnt about which exist. Checked before the query is validated, as the guard checks a route's permissions.
 */
export const uploadTarget = async (services: Services, caller: Caller, resource: unknown): Promise<ResourceDeclaration> => {
  const name = typeof resource === 'string' ? resource : '';
  const declaration = services.models.get(name)?.declaration ?? (await services.configuredTypes?.lookup(name))?.model.declaration;
  const permissions = [declaration?.permissions.create, declaration?.permissions.edit].filter((identifier): identifier is string => Boolean(identifier));
  if (!declaration || permissions.length === 0) throw new AppError('4003');
  await caller.require(permissions);
  return declaration;
};

/** The image or file field `field` of the declaration, else 1004. */
export const fileField = (declaration: ResourceDeclaration, field: string): FieldDeclaration => {
  const declared = Object.hasOwn(declaration.fields, field) ? declaration.fields[field] : undefined;
  if (!declared || !isFileKind(declared.type) || declared.readOnly) throw invalidField('field', 'validation.enum');
  return declared;
};

export const registerFileRoutes = (api: TypedApp, services: Services) => {
  // A scope of its own: its body parser hands the raw stream to the upload route and nothing else.
  void api.register(async (plain) => {
    const app = typedApp(plain);
    const { db } = services;
    const storage: FileStorage = await createFileStorage({ folder: services.config.filesDir, s3Url: services.config.filesS3Url });
    app.log.info(`uploaded files: ${storage.description}`);
    app.addHook('onClose', () => storage.close());
    services.fileStorage = storage;
    // uploads never saved into a record (or let go of since), older than a day: one instance at a time (./cleanup.ts)
    services.jobs.add({
      name: FILE_SWEEP_JOB,
      everyMs: 60 * 60_000,
      runAtStart: true,
      run: (now) => sweepUnsavedFiles({ db, fileStorage: storage, columns: fileColumnsOf(services.models.values()), log: app.log }, now),
    });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // A refusal answered before the whole body arrived closes the connection rather than reading the rest.
    app.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete) reply.header('connection', 'close');
    });

    const ownFile = async (request: FastifyRequest, id: number): Promise<UploadedFileRow> => {
      const account = callerOf(request).principal.licenseAccountId;
      const [row] =
        account === null
          ? []
          : await db
              .select()
              .from(uploadedFile)
              .where(and(eq(uploadedFile.id, id), eq(uploadedFile.licenseAccountId, account)));
      if (!row) throw new AppError('2003');
      return row;
    };

    const sendObject = async (request: FastifyRequest, reply: FastifyReply, key: string, mimeType: string, etag: string, disposition?: string) => {
      const stored = await storage.stat(key);
      if (!stored) throw new AppError('2003');
      reply.header('x-content-type-options', 'nosniff');
      // files never change under their id; revalidated each time so a signed-out browser serves nothing from its cache
      reply.header('cache-control', 'private, no-cache');
      reply.header('etag', etag);
      reply.header('accept-ranges', 'bytes');
      if (disposition) reply.header('content-disposition', disposition);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const range = parseRange(request.headers.range, stored.size);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${stored.size}`).send();
      const body = await storage.get(key, range);
      if (!body) throw new AppError('2003');
      reply.type(mimeType);
      if (!range) return reply.header('content-length', stored.size).send(body);
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${stored.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(body);
    };

    app.post(
      '/file',
      {
        onRequest: async (request) => {
          await uploadTarget(services, callerOf(request), rawQueryValue(request.query, 'resource'));
        },
        schema: {
          tags: ['files'],
          summary: 'Upload a file for an image or file field; answers its id, the value to store in the field',
          description:
            'The body is the file itself (any Content-Type; the type is judged from the bytes). Needs the create or edit permission of `resource`. ' +
            "Refusals: 9600 over the field's maxBytes (resData.maxBytes), 9601 a type the field does not accept (resData.mimeType, accept), 1001 an empty body, " +
            '4003 no permission or unknown resource, 1004 a field that takes no files, 9602 the storage failed. docs/files.md',
          security: [{ rvmToken: [] }],
          querystring: Type.Object(
            {
              resource: Type.String({ minLength: 1, maxLength: 64 }),
              field: Type.String({ minLength: 1, maxLength: 64 }),
              name: Type.Optional(Type.String({ maxLength: 1000, description: "The file's name (shown and used for downloads)" })),
            },
            { additionalProperties: false },
          ),
          response: { 200: envelopeSchema(FILE_INFO), ...failureResponses(true) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const { resource, field, name } = request.query;
        const declared = fileField(await uploadTarget(services, caller, resource), field);
        const account = caller.principal.licenseAccountId;
        if (account === null) throw new AppError('5001');
        const length = Number(request.headers['content-length']);
        let row: UploadedFileRow;
        try {
          row = await storeUpload(db, storage, request.log, {
            source: request.raw,
            declaredBytes: Number.isFinite(length) ? length : undefined,
            limits: fileLimitsOf(declared),
            name: cleanFileName(name),
            licenseAccountId: account,
            uploadedBy: caller.userId,
            thumbnail: declared.type === 'image' || declared.dimensions !== undefined,
          });
        } catch (error) {
          if (error instanceof AppError) throw error;
          // the client went away: nobody to answer; anything else is the storage's or the database's
          if (!request.raw.complete) throw invalidField('(body)', 'validation.invalid');
          request.log.error({ err: error }, 'an upload could not be stored');
          throw new AppError('9602');
        }
        return ok(request, toFileInfo(row));
      },
    );

    app.get(
      '/file/info',
      {
        schema: {
          tags: ['files'],
          summary: "Uploaded files' names, types, sizes and hashes (the caller's account's only; others are left out)",
          security: [{ rvmToken: [] }],
          querystring: Type.Object({ ids: Type.String({ maxLength: 2000, pattern: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$' }) }, { additionalProperties: false }),
          response: { 200: envelopeSchema({ type: 'array', items: FILE_INFO }), ...failureResponses(true) },
        },
      },
      async (request) => {
        const account = callerOf(request).principal.licenseAccountId;
        const ids = [...new Set(request.query.ids.split(',').map(Number))].filter((id) => id >= 1 && id <= 2147483647).slice(0, 100);
        const rows =
          account === null || ids.length === 0
            ? []
            : await db
                .select()
                .from(uploadedFile)
                .where(and(eq(uploadedFile.licenseAccountId, account), inArray(uploadedFile.id, ids)));
        return ok(request, rows.map(toFileInfo));
      },
    );

    app.get(
      '/file/:id',
      {
        schema: {
          tags: ['files'],
          summary: 'Download an uploaded file (Content-Disposition: attachment; Range: bytes=… answers 206)',
          description: "2003 when it is not the caller's license account's.",
          security: [{ rvmToken: [] }],
          params: Type.Object({ id: RowId() }),
          response: { 200: FileAnswer(), 206: FileAnswer(), ...failureResponses(true) },
        },
      },
      async (request, reply) => {
        const row = await ownFile(request, request.params.id);
        return sendObject(request, reply, row.storageKey, row.mimeType, `"${row.sha256}"`, attachmentHeader(row.name));
      },
    );

    app.get(
      '/file/:id/thumbnail',
      {
        schema: {
          tags: ['files'],
          summary: "An uploaded image's thumbnail (WebP, at most 160 pixels a side); 2003 when it has none or is not the caller's account's",
          security: [{ rvmToken: [] }],
          params: Type.Object({ id: RowId() }),
          response: { 200: FileAnswer(), ...failureResponses(true) },
        },
      },
      async (request, reply) => {
        const row = await ownFile(request, request.params.id);
        if (!row.thumbnailKey) throw new AppError('2003');
        return sendObject(request, reply, row.thumbnailKey, 'image/webp', `"${row.sha256}-thumb"`);
      },
    );
  });
};

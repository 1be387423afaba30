// Resumable uploads (tus 1.0, docs/files.md "Resumable uploads"): the same file as `POST /file`, sent in
// pieces that survive a broken connection. `@tus/server` speaks the protocol; its bytes wait in a folder
// (DATA_DIR/uploads, `@tus/file-store`) until the last one arrives, because a tus store must append at an
// offset and our FileStorage (S3 included) only stores a whole stream. Then the staged file goes through
// the plain upload's path (storeUpload: type from the bytes, size, SHA-256 while streaming, thumbnail,
// the uploaded_file row last) and the staged copy is removed. Every request is the signed-in caller's:
// the upload's account and resource are fixed by the server at creation, and the create or edit
// permission of that resource is checked again on every request.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fileLimitsOf, mimeAccepted, type FileLimits } from '../../resources/files';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { failureEnvelope } from '../lib/errorHandler';
import { AppError, httpStatusOf, invalidField } from '../lib/errors';
import { typedApp, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { detectMime, HEAD_BYTES, refusedFormat, tooLarge } from './content';
import { FILE_INFO, fileField, uploadTarget } from './routes';
import { cleanFileName, storeUpload, toFileInfo } from './upload';

/** Where the upload route answers (under the API prefix); an upload's address is `<this>/<id>`. */
export const RESUMABLE_PATH = '/file/upload';
/** A staged upload nobody finished is removed this long after it was created. */
const EXPIRY_MS = 24 * 3_600_000;
const CLEANUP_EVERY_MS = 3_600_000;

/** What the server fixed when the upload was created (tus metadata, stored beside the bytes). */
interface Owned {
  resource: string;
  field: string;
  name: string;
  account: number;
  user: number;
}

/** The request being handled by tus, and who sent it. */
interface Context {
  request: FastifyRequest;
  caller: Caller;
  account: number;
  limits: FileLimits;
  thumbnail: boolean;
}

/** `Upload-Metadata`: comma-separated `key base64value` pairs (tus 1.0 "Creation"). */
const parseMetadata = (header: string | string[] | undefined): Record<string, string> => {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const pairs = text
    .split(',')
    .map((pair) => pair.trim().split(/\s+/))
    .filter(([key]) => key);
  return Object.fromEntries(pairs.map(([key, value]) => [key, value ? Buffer.from(value, 'base64').toString('utf8') : '']));
};

const ownedOf = (upload: Upload): Owned | null => {
  const metadata = upload.metadata ?? {};
  const account = Number(metadata.account);
  const user = Number(metadata.user);
  if (!metadata.resource || !metadata.field || !Number.isInteger(account) || !Number.isInteger(user)) return null;
  return { resource: metadata.resource, field: metadata.field, name: metadata.name ?? 'file', account, user };
};

/** An answer tus writes as is: the envelope of a catalogue failure in the request's language. */
const tusFailure = (request: FastifyRequest, failure: AppError) => ({ status_code: httpStatusOf(failure.code), body: JSON.stringify(failureEnvelope(request, failure)) });

const accountOf = (caller: Caller): number => {
  const account = caller.principal.licenseAccountId;
  if (account === null) throw new AppError('5001');
  return account;
};

export const registerResumableUploads = (api: TypedApp, services: Services) => {
  void api.register(async (plain) => {
    const app = typedApp(plain);
    const directory = services.config.uploadsDir ?? (await mkdtemp(join(tmpdir(), 'rvm-uploads-')));
    const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: EXPIRY_MS });
    const contexts = new WeakMap<Request, Context>();
    const contextOf = (request: Request): Context => {
      const context = contexts.get(request);
      if (!context) throw new Error('a resumable upload request without its context');
      return context;
    };

    const tus = new Server({
      path: RESUMABLE_PATH,
      datastore,
      relativeLocation: true,
      // an absolute path under the creation request's, whatever the API prefix (`/test-api/file/upload/<id>`): a
      // relative one is resolved by some clients against the page, not the endpoint
      generateUrl: (request, { id }) => `${new URL(request.url).pathname.replace(/\/+$/, '')}/${id}`,
      getFileIdFromRequest: (request) => /\/file\/upload\/([A-Za-z0-9_-]+)$/.exec(new URL(request.url).pathname)?.[1],
      // the account in the name only keeps uploads apart on disk; ownership is read from the metadata
      namingFunction: (request) => `${contextOf(request).account}-${randomUUID()}`,
      maxSize: (request) => contextOf(request).limits.maxBytes,
      onUploadCreate: async (request, upload) => {
        const { caller, account } = contextOf(request);
        const sent = upload.metadata ?? {};
        // what the client sent is replaced by what the server decided
        const metadata: Record<string, string> = {
          resource: sent.resource ?? '',
          field: sent.field ?? '',
          name: cleanFileName(sent.name ?? sent.filename ?? undefined),
          account: String(account),
          user: String(caller.userId),
        };
        return { metadata };
      },
      onUploadFinish: async (request, upload) => {
        const context = contextOf(request);
        const owned = ownedOf(upload);
        try {
          if (!owned) throw new AppError('2003');
          const storage = services.fileStorage;
          if (!storage) throw new AppError('9602');
          const row = await storeUpload(services.db, storage, context.request.log, {
            source: datastore.read(upload.id),
            declaredBytes: upload.size,
            limits: context.limits,
            name: owned.name,
            licenseAccountId: owned.account,
            uploadedBy: owned.user,
            thumbnail: context.thumbnail,
          }).catch((error: unknown) => {
            if (error instanceof AppError) throw error;
            context.request.log.error({ err: error }, 'a resumable upload could not be stored');
            throw new AppError('9602');
          });
          return { status_code: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(ok(context.request, toFileInfo(row))) };
        } catch (error) {
          if (error instanceof AppError) throw tusFailure(context.request, error);
          throw error;
        } finally {
          // stored or refused, the staged bytes have served
          await datastore.remove(upload.id).catch(() => undefined);
        }
      },
    });
    const cleanup = setInterval(() => void tus.cleanUpExpiredUploads().catch((error: unknown) => app.log.warn({ err: error }, 'expired uploads not removed')), CLEANUP_EVERY_MS);
    cleanup.unref();
    app.addHook('onClose', async () => {
      clearInterval(cleanup);
      if (!services.config.uploadsDir) await rm(directory, { recursive: true, force: true });
    });

    // PATCH bodies are the upload's bytes, read by tus from the raw stream.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    app.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete) reply.header('connection', 'close');
    });

    /** The caller's right to upload into `resource`'s `field`: the limits that apply (4003 / 1004 otherwise). */
    const checkTarget = async (caller: Caller, resource: unknown, field: unknown) => {
      const declared = fileField(await uploadTarget(services, caller, resource), typeof field === 'string' ? field : '');
      return { limits: fileLimitsOf(declared), thumbnail: declared.type === 'image' || declared.dimensions !== undefined };
    };

    /** The staged upload `id` of the caller's account, else 2003 (404: a tus client starts over). */
    const ownUpload = async (caller: Caller, id: string) => {
      const upload = await datastore.getUpload(id).catch(() => null);
      const owned = upload && ownedOf(upload);
      if (!upload || !owned || owned.account !== accountOf(caller)) throw new AppError('2003');
      return { upload, owned };
    };

    /** Once the head of the bytes is in, a type the field refuses ends the upload (9601) before the rest is sent. */
    const judgeHead = async (upload: Upload, limits: FileLimits) => {
      if (upload.offset < Math.min(HEAD_BYTES, upload.size ?? Infinity) || upload.offset === upload.size) return;
      const chunks: Buffer[] = [];
      for await (const chunk of Readable.from(datastore.read(upload.id)).iterator({ destroyOnReturn: true })) {
        chunks.push(chunk as Buffer);
        if (chunks.reduce((sum, piece) => sum + piece.length, 0) >= HEAD_BYTES) break;
      }
      const mimeType = await detectMime(Buffer.concat(chunks).subarray(0, HEAD_BYTES));
      if (!mimeAccepted(mimeType, limits.accept)) {
        await datastore.remove(upload.id).catch(() => undefined);
        throw refusedFormat(mimeType, limits);
      }
    };

    /** Hands the request to tus and its answer back to Fastify. */
    const handOver = async (request: FastifyRequest, reply: FastifyReply, context: Omit<Context, 'request'>) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      const withBody = request.method === 'PATCH' || (request.method === 'POST' && Number(request.headers['content-length'] ?? 0) > 0);
      // `duplex` (a streamed body) is in Node's fetch but not yet in the DOM's RequestInit type
      const init: RequestInit & { duplex?: 'half' } = {
        method: request.method,
        headers,
        ...(withBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
      };
      const webRequest = new Request(`http://localhost${request.url}`, init);
      contexts.set(webRequest, { ...context, request });
      const answer = await tus.handleWeb(webRequest);
      reply.code(answer.status);
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      const body = await answer.text();
      return reply.send(body === '' ? undefined : body);
    };

    const TUS_HEADERS = {
      'tus-resumable': Type.Optional(Type.String({ description: 'Protocol version, 1.0.0' })),
    };
    const description =
      'tus 1.0 (core and creation; https://tus.io/protocols/resumable-upload). Create with `POST` (`Upload-Length`, `Upload-Metadata` with base64 `resource`, `field`, `name`), ' +
      'answered 201 with `Location`; send the bytes with `PATCH` (`Upload-Offset`, `Content-Type: application/offset+octet-stream`); after a broken connection, `HEAD` answers the offset ' +
      'to go on from. The last PATCH answers 200 with the envelope of `POST /file` (`FileInfo`). Refusals as `POST /file` (9600, 9601, 4003, 1004, 9602), ' +
      "plus 2003 (404) for an upload that is not the caller's account's or no longer staged (unfinished uploads are removed after 24 hours). docs/files.md";

    app.route({
      method: 'POST',
      url: RESUMABLE_PATH,
      schema: {
        tags: ['files'],
        summary: 'Start a resumable upload (tus) for an image or file field',
        description,
        security: [{ rvmToken: [] }],
        headers: Type.Object({ ...TUS_HEADERS, 'upload-length': Type.Optional(Type.String()), 'upload-metadata': Type.Optional(Type.String()) }),
        response: { 201: { description: "Created: `Location` is the upload's address", type: 'null' }, ...failureResponses(true) },
      },
      handler: async (request, reply) => {
        const caller = callerOf(request);
        const account = accountOf(caller);
        const metadata = parseMetadata(request.headers['upload-metadata']);
        const target = await checkTarget(caller, metadata.resource, metadata.field);
        const length = Number(request.headers['upload-length']);
        if (!Number.isSafeInteger(length) || length < 0) throw invalidField('Upload-Length', 'validation.required', '1001');
        if (length === 0) throw invalidField('(body)', 'validation.required', '1001');
        if (length > target.limits.maxBytes) throw tooLarge(target.limits.maxBytes);
        return handOver(request, reply, { caller, account, ...target });
      },
    });

    app.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${RESUMABLE_PATH}/:id`,
      schema: {
        tags: ['files'],
        summary: 'A resumable upload (tus): HEAD its offset, PATCH more bytes, DELETE to give it up',
        description,
        security: [{ rvmToken: [] }],
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$' }) }),
        headers: Type.Object({ ...TUS_HEADERS, 'upload-offset': Type.Optional(Type.String()) }),
        response: {
          200: envelopeSchema(FILE_INFO, 'The last PATCH: the file stored, as `POST /file` answers it (HEAD: `Upload-Offset`, `Upload-Length`)'),
          204: { description: 'Bytes taken (`Upload-Offset`: the new offset), or the upload given up (DELETE)', type: 'null' },
          ...failureResponses(true),
        },
      },
      handler: async (request, reply) => {
        const caller = callerOf(request);
        const { id } = request.params;
        const { upload, owned } = await ownUpload(caller, id);
        const target = await checkTarget(caller, owned.resource, owned.field);
        if (request.method === 'PATCH') await judgeHead(upload, target.limits);
        return handOver(request, reply, { caller, account: owned.account, ...target });
      },
    });
  });
};

// Item pictures from machines (docs/machine-protocol.md "Item pictures"): a machine PUTs the PNG or JPEG it
// took of an item over HTTP with its gateway credentials (Basic, as package downloads), never through MQTT.
// The bytes go to the file storage, a row in ai_picture says whose item it was; the same item sent again is
// acknowledged and not stored twice. Operators view pictures of their own account's pool.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { ITEM_TYPES } from '../../resources/fleetCatalogue';
import { callerOf } from '../auth/guard';
import type { Db } from '../db/client';
import { aiPicture, aiSample } from '../db/schema/aiTraining';
import { basicCredentials } from '../deployments/download';
import { authenticateMachine } from '../gateway/credentials';
import { detectMime, refusedType } from '../files/content';
import type { FileStorage } from '../files/storage';
import { failureResponses, ok, envelopeSchema } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { FileAnswer, StringEnum, typedApp, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

export const PICTURE_PATH = '/gateway/picture';
export const MAX_PICTURE_BYTES = 256 * 1024;
const PICTURE_TYPES = ['image/png', 'image/jpeg'];

export interface PictureMeta {
  sessionId: string;
  seq: number;
  itemType: string;
  rejectReason?: number;
  confidence?: number;
  ts: string;
}

/** Stores one picture of a machine; false when that item's picture was already stored. */
export const storePicture = async (db: Db, storage: FileStorage, machine: { rvmId: number; licenseAccountId: number }, meta: PictureMeta, bytes: Buffer) => {
  const mime = await detectMime(bytes.subarray(0, 64));
  if (!PICTURE_TYPES.includes(mime)) throw refusedType(mime, PICTURE_TYPES);
  const key = `ai/${machine.licenseAccountId}/${randomUUID()}${mime === 'image/png' ? '.png' : '.jpg'}`;
  await storage.put(key, Readable.from([bytes]), mime);
  const inserted = await db
    .insert(aiPicture)
    .values({
      licenseAccountId: machine.licenseAccountId,
      rvmId: machine.rvmId,
      sessionRef: meta.sessionId,
      seq: meta.seq,
      itemType: meta.itemType,
      rejectReason: meta.rejectReason ?? null,
      confidence: meta.confidence ?? null,
      storageKey: key,
      size: bytes.length,
      capturedTime: new Date(meta.ts),
    })
    .onConflictDoNothing()
    .returning({ id: aiPicture.id })
    .catch(async (error: unknown) => {
      await storage.delete(key).catch(() => undefined);
      throw error;
    });
  if (!inserted.length) await storage.delete(key);
  return inserted.length > 0;
};

export const registerPictureRoutes = (plain: TypedApp, services: Services) => {
  const { db } = services;
  // the raw body parser only for these routes (an encapsulated plugin)
  void plain.register(async (scoped) => {
    const app = typedApp(scoped);
    app.addContentTypeParser(PICTURE_TYPES, { parseAs: 'buffer', bodyLimit: MAX_PICTURE_BYTES }, (_request, body, done) => done(null, body));
    app.put(
      PICTURE_PATH,
      {
        config: { public: true },
        schema: {
          tags: ['gateway'],
          summary: 'A machine uploads the picture it took of an item (PNG or JPEG, at most 256 KiB): docs/machine-protocol.md "Item pictures"',
          description: "HTTP Basic authentication with the machine's serial number and gateway secret (8105, 401 otherwise). The same item again is a no-op.",
          querystring: Type.Object({
            sessionId: Type.String({ minLength: 1, maxLength: 64 }),
            seq: Type.Integer({ minimum: 1, maximum: 1000 }),
            itemType: StringEnum([...ITEM_TYPES]),
            rejectReason: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
            confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
            ts: Type.String({ format: 'date-time' }),
          }),
          response: { 200: envelopeSchema({ type: 'object', properties: { stored: { type: 'boolean' } } }), ...failureResponses(false) },
        },
      },
      async (request, reply) => {
        const credentials = basicCredentials(request.headers.authorization);
        const machine = credentials ? await authenticateMachine(db, credentials.user, credentials.secret) : null;
        if (!machine || machine.enrolled || machine.rvmId === null) {
          reply.header('www-authenticate', 'Basic realm="rvm-pictures", charset="UTF-8"');
          throw new AppError('8105');
        }
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw refusedType('none', PICTURE_TYPES);
        const storage = services.fileStorage;
        if (!storage) throw new AppError('9602');
        const stored = await storePicture(db, storage, { rvmId: machine.rvmId, licenseAccountId: machine.licenseAccountId }, request.query, body);
        return ok(request, { stored });
      },
    );

    app.get(
      '/ai/sample/:id/picture',
      {
        config: { permissions: ['service:imageLabeling', 'service:getSamples', 'service:imageClassify'] },
        schema: {
          tags: ['ai'],
          summary: "A sample's picture (PNG or JPEG); 2003 when not the caller's",
          security: [{ rvmToken: [] }],
          params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
          response: { 200: FileAnswer(), ...failureResponses(true) },
        },
      },
      async (request, reply) => {
        const account = callerOf(request).principal.licenseAccountId;
        const [row] =
          account === null
            ? []
            : await db
                .select({ key: aiPicture.storageKey })
                .from(aiSample)
                .innerJoin(aiPicture, eq(aiPicture.id, aiSample.pictureId))
                .where(and(eq(aiSample.id, request.params.id), eq(aiSample.licenseAccountId, account)));
        const stream = row && services.fileStorage ? await services.fileStorage.get(row.key) : null;
        if (!stream) throw new AppError('2003');
        // pictures are small (MAX_PICTURE_BYTES): read whole, sent with their length
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks);
        reply.header('cache-control', 'private, max-age=3600');
        return reply.type(row.key.endsWith('.png') ? 'image/png' : 'image/jpeg').send(body);
      },
    );
  });
};

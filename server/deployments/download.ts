// A machine downloads the package of one of its deliveries (docs/deployments.md "Download"): HTTP Basic
// authentication with its serial number and gateway secret, a URL signed for that delivery and expiry,
// byte ranges so a broken download resumes. The bytes are streamed from the file storage, never held.
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/client';
import { deployment, deploymentPackage, deploymentTarget } from '../db/schema/deployments';
import { uploadedFile } from '../db/schema/files';
import { parseRange } from '../files/routes';
import type { FileStorage } from '../files/storage';
import { failureResponses } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { FileAnswer, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { DOWNLOAD_PATH, signatureMatches, signingKey } from './signing';

/** Who a serial number and secret are (the gateway's check, server/gateway/credentials.ts). */
export type AuthenticateMachine = (db: Db, serial: string, secret: string) => Promise<{ rvmId: number | null; enrolled?: boolean } | null>;

/** `Authorization: Basic base64(serial:secret)` → its parts; null when absent or malformed. */
export const basicCredentials = (header: string | undefined): { user: string; secret: string } | null => {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]{1,400})$/i.exec(header.trim()) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) } : null;
};

const refuseCredentials = (reply: FastifyReply) => {
  reply.header('www-authenticate', 'Basic realm="rvm-packages", charset="UTF-8"');
  return new AppError('8105');
};

const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`;

/** The package's bytes (a range of them) with the headers a resuming downloader needs. */
const sendPackage = async (request: FastifyRequest, reply: FastifyReply, storage: FileStorage, file: { key: string; size: number; sha256: string; name: string }) => {
  const etag = `"${file.sha256}"`;
  reply.header('cache-control', 'private, no-store');
  reply.header('etag', etag);
  reply.header('accept-ranges', 'bytes');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-disposition', attachment(file.name));
  // A resumed download asks for the rest only if the bytes are still the same (If-Range: the ETag).
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? undefined : parseRange(request.headers.range, file.size);
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${file.size}`).send();
  const body = await storage.get(file.key, range);
  if (!body) throw new AppError('2003');
  reply.type('application/octet-stream');
  if (!range) return reply.header('content-length', file.size).send(body);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(body);
};

export const registerPackageDownload = (app: TypedApp, services: Services, authenticate: AuthenticateMachine) => {
  const { db } = services;
  app.get(
    `${DOWNLOAD_PATH}/:deployId`,
    {
      config: { public: true },
      schema: {
        tags: ['gateway'],
        summary: "A machine downloads its delivery's package (the `url` of its deploy message)",
        description:
          "HTTP Basic authentication with the machine's serial number and gateway secret (8105, 401 otherwise). The URL is signed for one " +
          "delivery and expiry: a changed signature or a voided delivery 8102 (403), an expired URL 8103 (410), another machine's delivery " +
          '8104 (403). `Range: bytes=…` answers 206 (416 when unsatisfiable); ETag is the SHA-256. docs/deployments.md',
        params: Type.Object({ deployId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        querystring: Type.Object({
          expires: Type.Integer({ minimum: 0, maximum: 99_999_999_999, description: 'Unix seconds after which the URL is refused' }),
          signature: Type.String({ maxLength: 128 }),
        }),
        response: { 200: FileAnswer(), 206: FileAnswer(), ...failureResponses(false) },
      },
    },
    async (request, reply) => {
      const credentials = basicCredentials(request.headers.authorization);
      const machine = credentials ? await authenticate(db, credentials.user, credentials.secret) : null;
      // an enrolling device (the account's shared key) has no deliveries
      if (!machine || machine.enrolled || machine.rvmId === null) throw refuseCredentials(reply);
      const { deployId } = request.params;
      const { expires, signature } = request.query;
      if (!signatureMatches(await signingKey(db), deployId, expires, signature)) throw new AppError('8102');
      if (expires * 1000 <= Date.now()) throw new AppError('8103');
      const [row] = await db
        .select({
          rvmId: deploymentTarget.rvmId,
          status: deploymentTarget.status,
          storageKey: uploadedFile.storageKey,
          sha256: uploadedFile.sha256,
          fileName: uploadedFile.name,
        })
        .from(deploymentTarget)
        .innerJoin(deployment, eq(deployment.id, deploymentTarget.deploymentId))
        .innerJoin(deploymentPackage, eq(deploymentPackage.id, deployment.packageId))
        .innerJoin(uploadedFile, and(eq(uploadedFile.id, deploymentPackage.file), eq(uploadedFile.licenseAccountId, deploymentPackage.licenseAccountId)))
        .where(eq(deploymentTarget.id, deployId));
      if (!row || row.status === 'voided') throw new AppError('8102');
      if (row.rvmId !== machine.rvmId) throw new AppError('8104');
      const storage = services.fileStorage;
      const stored = storage ? await storage.stat(row.storageKey) : null;
      if (!storage || !stored) throw new AppError('2003');
      return sendPackage(request, reply, storage, { key: row.storageKey, size: stored.size, sha256: row.sha256, name: row.fileName });
    },
  );
};

// One upload from the request's stream to the storage and the uploaded_file row (docs/files.md): checked
// and hashed on the way (./content.ts), a thumbnail for images, the row last. Any failure removes what
// was stored, so a broken upload leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { Readable, finished, pipeline } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { FILE_NAME_MAX, formatName, sizeText, THUMBNAIL_PIXELS, type FileInfo, type FileLimits } from '../../resources/files';
import type { Db } from '../db/client';
import { uploadedFile } from '../db/schema';
import { AppError } from '../lib/errors';
import { tooLarge, UploadInspector } from './content';
import { mediaSize, type PixelSize } from './mediaSize';
import type { FileStorage } from './storage';

export type UploadedFileRow = typeof uploadedFile.$inferSelect;

export const toFileInfo = (row: UploadedFileRow): FileInfo => ({
  id: row.id,
  name: row.name,
  mimeType: row.mimeType,
  size: row.size,
  sha256: row.sha256,
  hasThumbnail: row.thumbnailKey !== null,
  createdTime: row.createdTime.toISOString(),
});

/** The uploader's file name without folders or control characters, cut to FILE_NAME_MAX with its extension kept. */
export const cleanFileName = (raw: string | undefined): string => {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const base = [...last]
    .filter((character) => character >= ' ' && character !== '\u007f')
    .join('')
    .trim();
  if (!base) return 'file';
  if (base.length <= FILE_NAME_MAX) return base;
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
  return base.slice(0, FILE_NAME_MAX - extension.length) + extension;
};

/** A WebP of at most THUMBNAIL_PIXELS a side, or null (not an image sharp can read: the file is kept without one). */
const makeThumbnail = async (storage: FileStorage, key: string, log: FastifyBaseLogger): Promise<Buffer | null> => {
  const source = await storage.get(key);
  if (!source) return null;
  try {
    // loaded with the first image, not at start (~140 ms); a platform without it keeps images without thumbnails
    const { default: sharp } = await import('sharp');
    const resize = sharp({ failOn: 'error' })
      .rotate() // as the camera held it (EXIF orientation)
      .resize(THUMBNAIL_PIXELS, THUMBNAIL_PIXELS, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 });
    return await new Promise<Buffer>((resolve, reject) => {
      pipeline(source, resize, (error) => error && reject(error));
      resize.toBuffer().then(resolve, reject);
    });
  } catch (error) {
    source.destroy();
    log.warn({ err: error, key }, 'no thumbnail for an uploaded image');
    return null;
  }
};

/**
 * The request's bytes into the inspector. Not `pipeline`: a refusal would destroy the request and its
 * socket with it, and the client would get a reset instead of the answer saying why. A client that goes
 * away ends the inspector (and so the put) with an error.
 */
const feed = (source: Readable, inspector: UploadInspector) => {
  source.pipe(inspector);
  finished(source, (error) => error && inspector.destroy(error));
  inspector.on('error', () => {
    source.unpipe(inspector);
    source.resume(); // the rest is read and dropped (the route closes the connection after answering)
  });
};

/** A media field's exact size (docs/files.md "Media sizes"): 9603 naming both sizes, 9605 when none can be read. */
const checkDimensions = async (storage: FileStorage, key: string, inspector: UploadInspector, expected: PixelSize) => {
  const mimeType = inspector.mimeType!;
  const found = await mediaSize(storage, key, mimeType, inspector.size);
  if (!found) throw new AppError('9605', { resData: { expected }, values: { expected: formatName(mimeType), size: sizeText(expected) } });
  if (found.width !== expected.width || found.height !== expected.height) {
    throw new AppError('9603', { resData: { expected, actual: found }, values: { expected: sizeText(expected), actual: sizeText(found) } });
  }
};

export interface UploadRequest {
  source: Readable;
  /** The request's Content-Length, when it sent one: refused at once when over the limit. */
  declaredBytes?: number;
  limits: FileLimits;
  name: string;
  licenseAccountId: number;
  uploadedBy: number;
  thumbnail: boolean;
}

export const storeUpload = async (db: Db, storage: FileStorage, log: FastifyBaseLogger, upload: UploadRequest): Promise<UploadedFileRow> => {
  if (upload.declaredBytes !== undefined && upload.declaredBytes > upload.limits.maxBytes) throw tooLarge(upload.limits.maxBytes);
  const storageKey = `${upload.licenseAccountId}/${randomUUID()}`;
  const thumbnailKey = `${storageKey}.thumb.webp`;
  const inspector = new UploadInspector(upload.limits);
  feed(upload.source, inspector);
  let storedThumbnail = false;
  try {
    await storage.put(storageKey, inspector);
    if (upload.limits.dimensions) await checkDimensions(storage, storageKey, inspector, upload.limits.dimensions);
    // a media field may hold videos too: only its pictures get a thumbnail
    const thumbnail = upload.thumbnail && inspector.mimeType!.startsWith('image/') ? await makeThumbnail(storage, storageKey, log) : null;
    if (thumbnail) {
      await storage.put(thumbnailKey, Readable.from([thumbnail]), 'image/webp');
      storedThumbnail = true;
    }
    const [row] = await db
      .insert(uploadedFile)
      .values({
        licenseAccountId: upload.licenseAccountId,
        uploadedBy: upload.uploadedBy,
        name: upload.name,
        mimeType: inspector.mimeType!,
        size: inspector.size,
        sha256: inspector.sha256,
        storageKey,
        thumbnailKey: storedThumbnail ? thumbnailKey : null,
      })
      .returning();
    return row;
  } catch (error) {
    // what a failed put began, it removed itself; what came after needs removing here
    await storage.delete(storageKey).catch((cause: unknown) => log.error({ err: cause, key: storageKey }, 'an upload left its file behind'));
    if (storedThumbnail) await storage.delete(thumbnailKey).catch(() => undefined);
    throw error;
  }
};

// What an upload is, judged from its bytes while they stream through (docs/files.md "Content checks"):
// the type from the first bytes (file-type's magic numbers, else readable UTF-8 text, else unknown), never
// from the name or the client's Content-Type; the size against the field's limit; the SHA-256 of it all.
// Nothing passes on before the type is accepted, and a refusal ends the stream with its catalogue code.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { formatList, formatName, mimeAccepted, TEXT_MIME, UNKNOWN_MIME, type FileLimits } from '../../resources/files';
import { AppError, invalidField } from '../lib/errors';

/** Bytes held back to judge the type: file-type needs ~4 KB for most formats, zip-based ones (docx, xlsx) more. */
export const HEAD_BYTES = 64 * 1024;

const looksLikeText = (head: Buffer) => {
  if (head.includes(0)) return false;
  try {
    // `stream`: a character cut at the end of the head is no error
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
};

export const detectMime = async (head: Buffer): Promise<string> => {
  // loaded with the first upload, not at start
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  return found?.mime ?? (looksLikeText(head) ? TEXT_MIME : UNKNOWN_MIME);
};

export const tooLarge = (maxBytes: number) => new AppError('9600', { resData: { maxBytes } });
export const refusedType = (mimeType: string, accept: readonly string[] | undefined) => new AppError('9601', { resData: { mimeType, accept: accept ?? [] } });

/**
 * A type the field does not take: a media field (one with `dimensions`) names the formats it takes and the
 * one found (9604, docs/files.md "Media sizes"); any other field answers 9601.
 */
export const refusedFormat = (mimeType: string, limits: FileLimits) =>
  limits.dimensions
    ? new AppError('9604', {
        resData: { mimeType, accept: limits.accept ?? [], expected: formatList(limits.accept), actual: formatName(mimeType) },
        values: { expected: formatList(limits.accept), actual: formatName(mimeType) },
      })
    : refusedType(mimeType, limits.accept);

/** A pass-through that refuses the upload by its type or size and hashes what it lets through. */
export class UploadInspector extends Transform {
  size = 0;
  /** Set once the head has been judged. */
  mimeType?: string;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly limits: FileLimits) {
    super();
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.limits.maxBytes) return done(tooLarge(this.limits.maxBytes));
    this.hash.update(chunk);
    if (this.mimeType !== undefined) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < HEAD_BYTES) return done();
    this.judge().then(() => done(), done);
  }

  override _flush(done: TransformCallback) {
    if (this.size === 0) return done(invalidField('(body)', 'validation.required', '1001'));
    if (this.mimeType !== undefined) return done();
    this.judge().then(() => done(), done);
  }

  private async judge() {
    const head = Buffer.concat(this.head);
    this.head = [];
    const mimeType = await detectMime(head);
    if (!mimeAccepted(mimeType, this.limits.accept)) throw refusedFormat(mimeType, this.limits);
    this.mimeType = mimeType;
    this.push(head);
  }
}

// A package download as docs/deployments.md ("Download") asks of a machine: GET the signed URL with
// HTTP Basic authentication (serial number and secret), hash the bytes (SHA-256) as they stream in and
// drop them at once, and after a broken connection ask for the rest only (`Range: bytes=<received>-`).
// Only the byte count and the running hash are kept, so 200 machines fetching 50 MB hold no packages.
import { createHash } from 'node:crypto';

export interface DownloadRequest {
  url: string;
  serialNumber: string;
  secret: string;
  /** The size the deploy message announced: more bytes than that are not read. */
  size: number;
  /** The simulator's broken download: the connection is cut once, after this many bytes. */
  cutAfter?: number;
  /** The simulator's corrupted transfer: one byte arrives flipped. */
  corrupt?: boolean;
  /** Connections tried at most before giving up (default 4). */
  attempts?: number;
  /** Waits before the next attempt (the machine's clock). */
  pause(attempt: number): Promise<void>;
  /** Aborts everything (the machine stops). */
  signal?: AbortSignal;
  /** Keep the bytes (content the machine reads, e.g. a personnel list), up to this many; default: keep none. */
  keepBytes?: number;
}

export type DownloadOutcome = { bytes: number; resumes: number } & ({ ok: true; sha256: string; content?: Buffer } | { ok: false; reason: string });

const REASON_CHARS = 200;

/** `bytes 100-199/1000` → 100 (null when absent or unreadable). */
export const contentRangeStart = (header: string | null): number | null => {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  return match ? Number(match[1]) : null;
};

/** What a refusal says: the status and the envelope's message (docs: `{ resCode, resMsg }`) when there is one. */
const refusal = async (response: Response) => {
  const text = (await response.text().catch(() => '')).slice(0, 2000);
  let message = '';
  try {
    const body = JSON.parse(text) as { resMsg?: unknown; resCode?: unknown };
    message = [body.resCode, body.resMsg].filter((part) => part !== undefined && part !== '').join(' ');
  } catch {
    message = text.trim();
  }
  return `HTTP ${response.status}${message ? `: ${message}` : ''}`.slice(0, REASON_CHARS);
};

const describe = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return (cause?.code ?? cause?.message ?? (error as Error).message ?? String(error)).slice(0, REASON_CHARS);
};

export const downloadPackage = async (request: DownloadRequest): Promise<DownloadOutcome> => {
  const attempts = request.attempts ?? 4;
  const authorization = `Basic ${Buffer.from(`${request.serialNumber}:${request.secret}`).toString('base64')}`;
  let hash = createHash('sha256');
  let received = 0;
  let resumes = 0;
  let cutAfter = request.cutAfter;
  let corrupt = request.corrupt ?? false;
  let lastProblem = 'no attempt';
  /** The first answer's ETag: a resume asks for the rest only if the bytes are still those (If-Range). */
  let etag: string | null = null;
  let kept: Buffer[] = [];
  const content = () => (request.keepBytes !== undefined && received <= request.keepBytes ? { content: Buffer.concat(kept) } : {});
  const failed = (reason: string): DownloadOutcome => ({ ok: false, reason, bytes: received, resumes });

  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (request.signal?.aborted) return failed('stopped');
    if (attempt > 1) await request.pause(attempt);
    const connection = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, connection.signal]) : connection.signal;
    const resuming = received > 0;
    let response: Response;
    try {
      const resume = resuming ? { range: `bytes=${received}-`, ...(etag ? { 'if-range': etag } : {}) } : {};
      response = await fetch(request.url, { headers: { authorization, ...resume }, signal });
    } catch (error) {
      lastProblem = describe(error);
      continue;
    }
    if (response.status === 206 && resuming) {
      const start = contentRangeStart(response.headers.get('content-range'));
      if (start !== received) {
        await response.body?.cancel();
        return failed(`the server resumed at byte ${start ?? '?'}, not ${received}`);
      }
      resumes++;
    } else if (response.status === 200) {
      // A server that ignores the range sends everything again: start over.
      hash = createHash('sha256');
      received = 0;
      kept = [];
    } else {
      const reason = await refusal(response);
      // The server's trouble may pass; a refusal (credentials, signature, expiry, unknown delivery) will not.
      if (response.status >= 500) {
        lastProblem = reason;
        continue;
      }
      return failed(reason);
    }
    if (response.status === 200) etag = response.headers.get('etag');
    if (!response.body) return { ok: true, sha256: hash.digest('hex'), bytes: received, resumes, ...content() };
    try {
      for await (const chunk of response.body) {
        let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        if (corrupt && bytes.length > 0) {
          bytes = Buffer.from(bytes);
          bytes[bytes.length - 1] ^= 0xff;
          corrupt = false;
        }
        hash.update(bytes);
        received += bytes.length;
        if (request.keepBytes !== undefined && received <= request.keepBytes) kept.push(Buffer.from(bytes));
        if (received > request.size) break; // longer than announced: the size check speaks
        if (cutAfter !== undefined && received >= cutAfter) {
          cutAfter = undefined;
          throw new Error(`connection cut after ${received} bytes`);
        }
      }
      return { ok: true, sha256: hash.digest('hex'), bytes: received, resumes, ...content() };
    } catch (error) {
      connection.abort();
      lastProblem = describe(error);
    }
  }
  return failed(`${lastProblem} (gave up after ${attempts} attempts, ${received} of ${request.size} bytes)`.slice(0, REASON_CHARS));
};

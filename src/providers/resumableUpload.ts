// Resumable uploads (docs/files.md "Resumable uploads"): the same call as the plain upload client's
// `upload('/file', file, …)`, sent with the tus protocol (tus-js-client) to `/file/upload`, so a broken
// connection costs only what was in flight: the client asks the server how much it kept and goes on
// from there (retried for about two minutes, also while the browser says it is offline), and a page
// reload finds the unfinished upload of the same file for the same field again (its address is kept
// in localStorage until it succeeds). Same headers, envelope and forced-logout handling as the http client;
// progress counts what the server has; cancel gives the upload up on the server too.
import { Upload, type DetailedError, type HttpResponse } from 'tus-js-client';
import { ERROR_TOAST_MS, readEnvelope, requestHeaders, settleEnvelope } from './http';
import { ApiError, type UploadClient } from './httpTypes';
import type { UploadClientOptions } from './upload';

/** Waits between attempts after a failure that may pass (no answer, 5xx, 409, 423): about two minutes in all. */
export const RESUME_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000];

export type ResumableUploadOptions = Omit<UploadClientOptions, 'createRequest'> & {
  /** Waits between attempts (tests shorten them). */
  retryDelays?: number[];
};

const abortError = () => new DOMException('The upload was cancelled', 'AbortError');

/** Worth another attempt: nothing answered (the connection broke), or the server says to come back. */
const passing = (error: DetailedError) => {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423;
};

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

export const createResumableUploadClient = (options: ResumableUploadOptions): UploadClient => {
  const { session, notify, translate } = options;
  const baseUrl = options.baseUrl ?? '/test-api';

  return {
    upload<T>(path: string, file: Blob, requestOptions: Parameters<UploadClient['upload']>[2] = {}) {
      const { query = {}, silent, signal, onProgress } = requestOptions;
      const fail = (error: ApiError): never => {
        if (!silent) notify(error.message, { type: 'error', autoHideDuration: ERROR_TOAST_MS });
        throw error;
      };
      const settle = (response: HttpResponse | null | undefined): T => {
        let parsed: unknown = null;
        try {
          const body = response?.getBody();
          parsed = body ? JSON.parse(body) : null;
        } catch {
          /* no envelope: the network failure below */
        }
        const envelope = readEnvelope(parsed);
        if (!envelope) return fail(new ApiError('network', translate('errors.network'), parsed, response?.getStatus() || undefined));
        return settleEnvelope<T>(envelope, response?.getStatus(), options, fail);
      };
      const resource = text(query.resource);
      const field = text(query.field);
      const name = text(query.name) || (file instanceof File ? file.name : 'file');

      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError());
        const upload = new Upload(file, {
          endpoint: `${baseUrl}${path}/upload`,
          metadata: { resource, field, name },
          // the same file for the same field goes on where it stopped, also after a reload
          fingerprint: async () => ['rvm-upload', resource, field, name, file.size, file.type, file instanceof File ? file.lastModified : ''].join('/'),
          storeFingerprintForResuming: true,
          removeFingerprintOnSuccess: true,
          retryDelays: options.retryDelays ?? RESUME_DELAYS_MS,
          onShouldRetry: (error) => passing(error),
          // the session's token and language as they are at each request (a resume may come much later)
          onBeforeRequest: (request) => {
            for (const [header, value] of Object.entries(requestHeaders(session))) request.setHeader(header, value);
          },
          onProgress: (sent, total) => onProgress?.({ loaded: sent, total }),
          onSuccess: ({ lastResponse }) => {
            signal?.removeEventListener('abort', onAbort);
            try {
              resolve(settle(lastResponse));
            } catch (error) {
              reject(error);
            }
          },
          onError: (error) => {
            signal?.removeEventListener('abort', onAbort);
            try {
              settle((error as DetailedError).originalResponse);
            } catch (failure) {
              reject(failure);
            }
          },
        });
        // the caller cancelled: the server drops what it kept, no toast, the caller's abort handling runs
        const onAbort = () => {
          reject(abortError());
          void upload.abort(true).catch(() => undefined);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        void upload
          .findPreviousUploads()
          .then((previous) => {
            if (signal?.aborted) return;
            if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
            upload.start();
          })
          .catch(() => upload.start());
      });
    },
  };
};

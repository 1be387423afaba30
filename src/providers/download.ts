// File downloads (docs/ARCHITECTURE.md#console-http-client): same base prefix and token header as the http client,
// a 5-minute time-out, blob answers, progress read from the response body stream, and
// 'Download failed' on anything but 200 (with the server's reason appended when it sent one).
import { ApiError, type DownloadClient, type DownloadProgress } from './httpTypes';
import { buildQueryString, ERROR_TOAST_MS, failureMessage, isForcedLogoutCode, readEnvelope, requestHeaders, timeoutSignal, type HttpClientOptions } from './http';

export const DOWNLOAD_TIMEOUT_MS = 300_000;

export type DownloadClientOptions = Omit<HttpClientOptions, 'timeoutMs'> & { timeoutMs?: number };

/** File name from Content-Disposition (RFC 5987 `filename*` first), else the last path segment. */
export const filenameFromDisposition = (header: string | null, fallback: string): string => {
  if (header) {
    const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
    if (extended) {
      try {
        return decodeURIComponent(extended[1].trim());
      } catch {
        /* fall through to the plain form */
      }
    }
    const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
    if (plain) return plain[1].trim();
  }
  return fallback;
};

const readWithProgress = async (response: Response, onProgress?: (progress: DownloadProgress) => void): Promise<Blob> => {
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  if (!response.body) {
    const blob = await response.blob();
    onProgress?.({ loaded: blob.size, total });
    return blob;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress?.({ loaded, total });
  }
  return new Blob(chunks, { type });
};

export const createDownloadClient = (options: DownloadClientOptions): DownloadClient => {
  const { session, notify, translate, onForcedLogout } = options;
  const baseUrl = options.baseUrl ?? '/test-api';
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  return {
    async download(method, path, requestOptions = {}) {
      const { query, body, silent, signal, onProgress } = requestOptions;
      const downloadFailed = translate('errors.download');
      const fail = (error: ApiError): never => {
        if (!silent) notify(error.message, { type: 'error', autoHideDuration: ERROR_TOAST_MS });
        throw error;
      };
      const timer = timeoutSignal(timeoutMs, signal);
      try {
        const hasBody = body !== undefined && method !== 'GET';
        let response: Response;
        try {
          response = await doFetch(`${baseUrl}${path}${buildQueryString(query)}`, {
            method,
            headers: requestHeaders(session, hasBody ? { 'Content-Type': 'application/json' } : {}),
            body: hasBody ? JSON.stringify(body) : undefined,
            signal: timer.signal,
          });
        } catch (cause) {
          if (signal?.aborted && !timer.timedOut()) throw cause;
          return fail(new ApiError(timer.timedOut() ? 'timeout' : 'download', downloadFailed));
        }
        if (response.status !== 200) {
          let envelope = null;
          try {
            envelope = readEnvelope(JSON.parse(await response.text()));
          } catch {
            /* not an envelope: the plain download error */
          }
          if (envelope && isForcedLogoutCode(envelope.code)) {
            session.clear();
            onForcedLogout();
            throw new ApiError(envelope.code, envelope.message, envelope.data, response.status);
          }
          const reason = envelope ? failureMessage(envelope, translate) : '';
          const message = reason ? translate('app.http.withDetail', { message: downloadFailed, detail: reason }) : downloadFailed;
          return fail(new ApiError(envelope?.code ?? 'download', message, envelope?.data, response.status));
        }
        try {
          const blob = await readWithProgress(response, onProgress);
          const fallback = decodeURIComponent(path.split('/').filter(Boolean).pop() ?? 'download');
          return { blob, filename: filenameFromDisposition(response.headers.get('Content-Disposition'), fallback) };
        } catch (cause) {
          if (signal?.aborted && !timer.timedOut()) throw cause;
          return fail(new ApiError('download', downloadFailed, undefined, response.status));
        }
      } finally {
        timer.dispose();
      }
    },
  };
};

/** Hands a downloaded blob to the browser as a file save. */
export const saveBlob = (blob: Blob, filename: string) => {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  // Revoke later: some browsers read the URL asynchronously after click().
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

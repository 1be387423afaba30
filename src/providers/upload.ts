// File uploads (docs/files.md): the same base prefix, token and language headers and the same answers
// (envelope, forced logout, catalogue messages) as the http client, over XMLHttpRequest because fetch
// reports no upload progress. The file goes as the raw body; the server judges its type from the bytes.
import { ERROR_TOAST_MS, readEnvelope, requestHeaders, buildQueryString, settleEnvelope, type HttpClientOptions } from './http';
import { ApiError, type UploadClient } from './httpTypes';

export type UploadClientOptions = Omit<HttpClientOptions, 'fetch' | 'timeoutMs'> & {
  /** The request object to use (tests give a fake one). */
  createRequest?: () => XMLHttpRequest;
};

const abortError = () => new DOMException('The upload was cancelled', 'AbortError');

export const createUploadClient = (options: UploadClientOptions): UploadClient => {
  const { session, notify, translate } = options;
  const baseUrl = options.baseUrl ?? '/test-api';
  const createRequest = options.createRequest ?? (() => new XMLHttpRequest());

  return {
    upload<T>(path: string, file: Blob, requestOptions: Parameters<UploadClient['upload']>[2] = {}) {
      const { query, silent, signal, onProgress } = requestOptions;
      const fail = (error: ApiError): never => {
        if (!silent) notify(error.message, { type: 'error', autoHideDuration: ERROR_TOAST_MS });
        throw error;
      };
      const answerOf = (status: number, text: string): T => {
        let parsed: unknown = null;
        try {
          parsed = text === '' ? null : JSON.parse(text);
        } catch {
          /* no envelope: the network failure below */
        }
        const envelope = readEnvelope(parsed);
        if (!envelope) return fail(new ApiError('network', translate('errors.network'), parsed, status));
        return settleEnvelope<T>(envelope, status, options, fail);
      };

      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError());
        const request = createRequest();
        const onAbort = () => request.abort();
        request.open('POST', `${baseUrl}${path}${buildQueryString(query)}`);
        for (const [name, value] of Object.entries(requestHeaders(session, { 'Content-Type': 'application/octet-stream' }))) request.setRequestHeader(name, value);
        request.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
        request.onload = () => {
          signal?.removeEventListener('abort', onAbort);
          try {
            resolve(answerOf(request.status, request.responseText));
          } catch (error) {
            reject(error);
          }
        };
        request.onerror = () => {
          signal?.removeEventListener('abort', onAbort);
          try {
            fail(new ApiError('network', translate('errors.network'), undefined, request.status || undefined));
          } catch (error) {
            reject(error);
          }
        };
        // the caller cancelled: no toast, the caller's abort handling runs
        request.onabort = () => {
          signal?.removeEventListener('abort', onAbort);
          reject(abortError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        request.send(file);
      });
    },
  };
};

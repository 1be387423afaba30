// The console's http client contract (implemented in ./http.ts). Everything that talks to the
// server goes through it, so the conventions of
// docs/ARCHITECTURE.md#console-http-client live in one place.
export type Query = Record<string, unknown>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Do not show the error toast (the caller shows its own message). */
  silent?: boolean;
  signal?: AbortSignal;
}

/** A failure answered by the server with a catalogue code. */
export class ApiError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly data?: unknown,
    public readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface HttpClient {
  request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, query?: Query, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  del<T = unknown>(path: string, query?: Query, options?: RequestOptions): Promise<T>;
}

export interface DownloadProgress {
  loaded: number;
  /** Total bytes when the server sent a Content-Length. */
  total?: number;
}

export interface DownloadClient {
  /** Fetches a file (5 min time-out, blob); 'Download failed' toast on non-200. */
  download(method: 'GET' | 'POST', path: string, options?: RequestOptions & { onProgress?: (progress: DownloadProgress) => void }): Promise<{ blob: Blob; filename: string }>;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadClient {
  /**
   * Sends `file` as the raw request body (its bytes streamed by the browser, progress reported as they
   * leave), answers the envelope's data; a failure answers an ApiError with the catalogue code.
   */
  upload<T = unknown>(path: string, file: Blob, options?: Pick<RequestOptions, 'query' | 'silent' | 'signal'> & { onProgress?: (progress: UploadProgress) => void }): Promise<T>;
}

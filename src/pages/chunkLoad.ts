// Lazy loading (docs/ARCHITECTURE.md#console-http-client): screens come as script (and stylesheet) chunks named after their area; a
// chunk that fails to load, or takes longer than the chunk time-out, is a "chunk load error" (a
// stylesheet: "CSS chunk load failed") shown to the user with a reload. Pure, so it is unit-tested.

/** Chunk load time-out (docs/product-rules.md#business-constants). */
export const CHUNK_TIMEOUT_MS = 120_000;

export type ChunkFailureKind = 'script' | 'css';

/** A chunk that could not be loaded: which kind, and the chunk's name (its file name without hash). */
export class ChunkLoadError extends Error {
  constructor(
    public readonly kind: ChunkFailureKind,
    public readonly chunk: string,
    cause?: unknown,
  ) {
    super(`${kind === 'css' ? 'CSS chunk load failed' : 'Chunk load error'}: ${chunk}`, { cause });
    this.name = 'ChunkLoadError';
  }
}

// What browsers and vite's preload helper say when a dynamic import or its stylesheet fails:
// Chromium "Failed to fetch dynamically imported module: <url>", Firefox "error loading dynamically
// imported module: <url>", Safari "Importing a module script failed.", vite "Unable to preload CSS for <url>".
const SCRIPT_FAILURE = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Failed to load module script/i;
const CSS_FAILURE = /Unable to preload CSS/i;
const URL_IN_MESSAGE = /(?:https?:\/\/[^\s]+)?\/[^\s]*\.(?:m?js|css)\b/;

/** The readable name of a chunk file: `/assets/area-search-Bx3d9a.js` gives `area-search`. */
export const chunkNameOf = (url: string | undefined): string => {
  if (!url) return '?';
  const file = url.split(/[?#]/)[0].split('/').pop() ?? url;
  return file.replace(/\.(m?js|css)$/, '').replace(/-[A-Za-z0-9_-]{8}$/, '');
};

/** The chunk load error an error stands for, or null when it is something else. */
export const asChunkLoadError = (error: unknown): ChunkLoadError | null => {
  if (error instanceof ChunkLoadError) return error;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const kind: ChunkFailureKind | null = CSS_FAILURE.test(message) ? 'css' : SCRIPT_FAILURE.test(message) ? 'script' : null;
  if (!kind) return null;
  return new ChunkLoadError(kind, chunkNameOf(URL_IN_MESSAGE.exec(message)?.[0]), error);
};

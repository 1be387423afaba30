// Chunk loading (docs/ARCHITECTURE.md#console-http-client): which failures are chunk load errors (script) or CSS chunk load failures,
// and the readable chunk name the message shows.
import { describe, expect, it } from 'vitest';
import { asChunkLoadError, CHUNK_TIMEOUT_MS, chunkNameOf, ChunkLoadError } from '../../src/pages/chunkLoad';

describe('chunk load errors', () => {
  it('the time-out is 120000 ms', () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
  });

  it("recognises a failed script chunk in each browser's words, with the chunk name", () => {
    const chromium = new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:8080/assets/area-search-Bx3d9a_K.js');
    expect(asChunkLoadError(chromium)).toMatchObject({ kind: 'script', chunk: 'area-search' });
    expect(asChunkLoadError(new TypeError('error loading dynamically imported module: http://x/assets/console-AbCdEfGh.js'))).toMatchObject({ kind: 'script', chunk: 'console' });
    expect(asChunkLoadError(new TypeError('Importing a module script failed.'))).toMatchObject({ kind: 'script', chunk: '?' });
  });

  it('recognises a stylesheet that vite could not preload as a CSS chunk load failure', () => {
    expect(asChunkLoadError(new Error('Unable to preload CSS for /assets/area-reports-12345678.css'))).toMatchObject({ kind: 'css', chunk: 'area-reports' });
  });

  it('leaves other errors alone and keeps its own', () => {
    expect(asChunkLoadError(new Error('Cannot read properties of undefined'))).toBeNull();
    expect(asChunkLoadError(null)).toBeNull();
    const own = new ChunkLoadError('script', 'timeout');
    expect(asChunkLoadError(own)).toBe(own);
  });

  it('names chunks without their hash', () => {
    expect(chunkNameOf('/assets/shared-Tooltip--E0H60TR.js')).toBe('shared-Tooltip');
    expect(chunkNameOf('http://h/assets/home-charts-Sisn7tpc.js?v=1')).toBe('home-charts');
  });
});

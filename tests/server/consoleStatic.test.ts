// Issue 8: the built console is served precompressed (scripts/vitePrecompress.ts writes .br and .gz
// beside every text file): brotli or gzip by the request's Accept-Encoding with the right headers,
// the plain file without it; hashed /assets/ immutable for a year, index.html (also as the SPA
// fallback) revalidated every time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { precompressFolder } from '../../scripts/vitePrecompress';
import { IMMUTABLE } from '../../server/lib/console';
import { describeOneBackend } from './helpers';

const SCRIPT = `export const greeting = ${JSON.stringify('hello console '.repeat(200))};\n`;
const PAGE = `<!doctype html><title>RVM Console</title><script type="module" src="/assets/app-abc12345.js"></script>${' '.repeat(2000)}`;

describeOneBackend('console static files', (server) => {
  const consoleDir = mkdtempSync(join(tmpdir(), 'rvm-console-static-'));
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(join(consoleDir, 'index.html'), PAGE);
  writeFileSync(join(consoleDir, 'assets', 'app-abc12345.js'), SCRIPT);
  writeFileSync(join(consoleDir, 'assets', 'logo-abc12345.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const compressed = precompressFolder(consoleDir);
  afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

  it('precompresses the text files only', () => {
    expect(compressed).toBe(2); // index.html and the script, not the image
  });

  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip, the plain file otherwise', async () => {
    const app = await server.anotherInstance({ staticDir: consoleDir });
    const url = '/assets/app-abc12345.js';

    const brotli = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotli.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('index.html and the SPA fallback are compressed too and never cached; an image is sent as is', async () => {
    const app = await server.anotherInstance({ staticDir: consoleDir });
    for (const url of ['/', '/login', '/systemSettings/user']) {
      const page = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect([url, page.statusCode, page.headers['content-encoding'], page.headers['cache-control']]).toEqual([url, 200, 'br', 'no-cache']);
      expect(brotliDecompressSync(page.rawPayload).toString()).toBe(PAGE);
    }
    const image = await app.inject({ method: 'GET', url: '/assets/logo-abc12345.png', headers: { 'accept-encoding': 'br, gzip' } });
    expect([image.statusCode, image.headers['content-encoding'], image.headers['cache-control']]).toEqual([200, undefined, IMMUTABLE]);
    const missing = await app.inject({ method: 'GET', url: '/assets/gone-00000000.js', headers: { 'accept-encoding': 'br' } });
    expect(missing.statusCode).toBe(404);
  });
});

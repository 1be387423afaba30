// Serves the built console (vite's dist/) at / with the SPA fallback: a GET outside the API that is
// not a file answers index.html. Unknown API addresses answer 4004 in the envelope.
// Caching: vite names everything under /assets/ by its content hash, so those files are cached for a
// year (`immutable`); index.html and the other files are revalidated on every load (`no-cache`), so a
// new release is picked up at once. A missing /assets/ file is a 404, never index.html.
// Compression: the build writes every text file also as .br and .gz (scripts/vitePrecompress.ts);
// `preCompressed` sends the variant the request's Accept-Encoding allows (brotli first) with
// Content-Encoding and `Vary: Accept-Encoding`, else the plain file: nothing is compressed per request.
import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errorHandler';

export const HASHED_ASSETS = 'assets';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export const registerConsole = async (app: FastifyInstance, apiPrefix: string, staticDir?: string) => {
  const root = staticDir ? resolve(staticDir) : undefined;
  const hasConsole = Boolean(root && existsSync(resolve(root, 'index.html')));
  if (root && hasConsole) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const hashed = relative(root, path).split(sep)[0] === HASHED_ASSETS;
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  } else if (root) app.log.warn({ root }, 'no built console (index.html) there: run `npm run build`; serving the API only');

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = path === apiPrefix || path.startsWith(`${apiPrefix}/`);
    const isAsset = path.startsWith(`/${HASHED_ASSETS}/`);
    if (hasConsole && !isApi && !isAsset && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    // An unknown API route is an API answer too: never cached (the API plugin's hook does not run for it).
    if (isApi) reply.header('cache-control', 'no-store');
    return notFound(request, reply);
  });
};

// Serves the built console (vite's dist/) at / with the SPA fallback: a GET outside the API that is
// not a file answers index.html. Unknown API addresses answer 4004 in the envelope.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errorHandler';

export const registerConsole = async (app: FastifyInstance, apiPrefix: string, staticDir?: string) => {
  const root = staticDir ? resolve(staticDir) : undefined;
  const hasConsole = Boolean(root && existsSync(resolve(root, 'index.html')));
  if (root && hasConsole) await app.register(fastifyStatic, { root, prefix: '/', index: ['index.html'] });
  else if (root) app.log.warn({ root }, 'no built console (index.html) there: run `npm run build`; serving the API only');

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = path === apiPrefix || path.startsWith(`${apiPrefix}/`);
    if (hasConsole && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return notFound(request, reply);
  });
};

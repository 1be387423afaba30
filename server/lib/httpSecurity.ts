// Browser security headers (@fastify/helmet) for every answer, and the API's own protections: answers
// are never stored by caches (they carry tokens and personal data), and a coarse per-address flood guard
// (@fastify/rate-limit, RATE_LIMIT_PER_MINUTE, 4029). docs/security.md lists every protection and its test.
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import { AppError } from './errors';

/**
 * The Content-Security-Policy of the console and of the Swagger UI (/test-api/docs). Scripts only from
 * the server's own files (the built console has no inline script; neither has the Swagger UI page).
 * Styles also inline: MUI/emotion injects <style> elements at run time and sets style attributes.
 * Images also data: (MUI and Swagger UI icons) and blob: (previews of files picked for upload).
 * No upgrade-insecure-requests: the server speaks plain HTTP unless a proxy in front adds TLS.
 */
export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'media-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Helmet on every answer (console, API, docs): CSP, nosniff, no referrer, no framing, HSTS (ignored over HTTP). */
export const registerSecurityHeaders = async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    // Reset links carry their token in the address: never send it on to another site.
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  });
};

const NO_RATE_HEADERS = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false } as const;

/** For the API plugin, before the guard: no-store on every answer, then the flood guard (before any database work). */
export const registerApiProtections = async (api: FastifyInstance, config: ServerConfig) => {
  // Downloads that need caching (machine pictures) set their own header later, which wins.
  api.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  if (config.rateLimitPerMinute <= 0) return;
  // Per process and per address, in memory: with N instances behind a balancer an address gets up to N times the limit.
  await api.register(rateLimit, {
    global: false,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    addHeadersOnExceeding: NO_RATE_HEADERS,
    addHeaders: { ...NO_RATE_HEADERS, 'retry-after': true },
    errorResponseBuilder: () => new AppError('4029'),
  });
  api.addHook('onRequest', api.rateLimit());
};

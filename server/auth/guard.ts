// The route-level guard. Every API route is token-protected unless its config says `public: true`;
// a route's `permissions` lists the identifiers it needs (any one suffices, superAdmin passes).
// A caller who must change their password (first sign-in, administrator-set or expired password)
// gets 4007 everywhere but on the routes flagged `whilePasswordChangeRequired` (the forced dialog's own).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { localeOf } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { passwordChangeReason } from './loginAnswer';
import type { CallerCache } from './callerCache';
import { Caller, loadCaller, type CallerEntry } from './principal';
import { TOKEN_NAME } from '../lib/envelope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (login, forgot/reset password). */
    public?: boolean;
    /** Permission identifiers, any of which grants the call. */
    permissions?: readonly string[];
    /**
     * Reachable while the caller must change their password (else 4007). Only what the console's forced
     * change-password dialog needs: the change itself, `GET /login/current`, `GET /login/logout`.
     */
    whilePasswordChangeRequired?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export const callerOf = (request: FastifyRequest): Caller => {
  if (!request.caller) throw new AppError('11011');
  return request.caller;
};

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Adds the guard to the routes of `app` (an encapsulated plugin: the API routes only). */
export const registerGuard = (app: FastifyInstance, db: Db, config: ServerConfig, callers?: CallerCache<CallerEntry>) => {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config;
    if (access.public) return;
    // Token checks, user, current license account and permissions: one round trip, or none while
    // the caller is kept in memory (principal.ts, callerCache.ts).
    const { principal, permissions } = await loadCaller(db, config, headerValue(request.headers[TOKEN_NAME])?.trim(), callers);
    request.caller = new Caller(db, config, principal, localeOf(request), permissions);
    const reason = passwordChangeReason(config, principal);
    if (reason && !access.whilePasswordChangeRequired) throw new AppError('4007', { resData: { reason } });
    if (access.permissions?.length) await request.caller.require(access.permissions);
  });
};

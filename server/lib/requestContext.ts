// What code deep in a request's work may need to know about the request without being handed it:
// the client's address for the audit log (server/audit/record.ts, docs/audit-log.md). AsyncLocalStorage
// carries it through every await of the request's handler, hooks and transactions.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

export interface RequestContext {
  /** request.ip: the socket's address, or the client named by a trusted proxy (the app's trustProxy). */
  address: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

const enter = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => storage.run({ address: request.ip }, done);

/**
 * Registered on the root instance before the API. Entered twice: a request body is read in the socket's
 * own async context, so what runs after it (preValidation, preHandler, the handler) would lose a context
 * entered at onRequest only (the same reason as @fastify/request-context's preValidation hook).
 */
export const registerRequestContext = (app: FastifyInstance) => {
  app.addHook('onRequest', enter);
  app.addHook('preValidation', enter);
};

/** The current request's context; undefined outside a request (jobs, the gateway, tests calling functions directly). */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

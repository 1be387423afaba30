// The route table as the app really registers it: an onRoute hook on every Fastify instance records
// each API route's method, URL, guard configuration (public, permissions) and request schemas, so the
// authorization matrix and the fuzzer cover a new route without anyone touching them.
// Use from a test file (vi.mock is hoisted, and the factory may only reach this module by import):
//   vi.mock('fastify', async (original) => (await import('../robust/routeTable')).recordingFastify(await original()));
// This module must not import 'fastify' at run time (it would import its own mock).
import type { FastifyInstance, RouteOptions } from 'fastify';

export type JsonSchema = Record<string, any>;

export interface RouteInfo {
  method: string;
  /** Fastify's URL, e.g. `/test-api/user/:id`. */
  url: string;
  key: string;
  public: boolean;
  /** Identifiers the guard checks (any one suffices); empty for token-only routes. */
  permissions: readonly string[];
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  /** Answers Server-Sent Events (the answer never ends by itself). */
  streaming: boolean;
}

const registered = new Map<string, RouteInfo>();

const isApiRoute = (url: string) => url.startsWith('/test-api/') && !url.startsWith('/test-api/docs');

const record = (route: RouteOptions) => {
  for (const method of [route.method].flat()) {
    if (method === 'HEAD' || !isApiRoute(route.url)) continue;
    const schema = (route.schema ?? {}) as Record<string, any>;
    const ok = schema.response?.[200] ?? schema.response?.['2xx'];
    registered.set(`${method} ${route.url}`, {
      method,
      url: route.url,
      key: `${method} ${route.url}`,
      public: Boolean(route.config?.public),
      permissions: [...(route.config?.permissions ?? [])],
      body: schema.body,
      querystring: schema.querystring,
      params: schema.params,
      streaming: typeof ok?.description === 'string' && ok.description.includes('event-stream'),
    });
  }
};

/** The module `vi.mock('fastify')` answers: the real one, whose instances record their routes. */
export const recordingFastify = <T extends Record<string, unknown>>(actual: T): T => {
  const factory = actual.default as (...args: unknown[]) => FastifyInstance;
  const recording = (...args: unknown[]) => {
    const app = factory(...args);
    app.addHook('onRoute', record);
    return app;
  };
  return { ...actual, default: recording, fastify: recording };
};

/** Every API route recorded so far (the OpenAPI document's routes excluded), in a stable order. */
export const apiRoutes = (): RouteInfo[] => {
  const routes = [...registered.values()].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
  if (routes.length === 0) throw new Error('no route recorded: is fastify mocked with recordingFastify in this test file?');
  return routes;
};

/** Routes any signed-in user may call (no permission configured): ARCHITECTURE.md "Calls", permission "token". */
export const tokenOnly = (route: RouteInfo) => !route.public && route.permissions.length === 0;

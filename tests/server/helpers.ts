// The backend matrix of the server suite (docs/test-quality.md "One backend or both"). A block whose
// behaviour depends on storage (describeBackends) runs on PGlite (in memory) and again on PostgreSQL
// when DATABASE_URL is set, in a throw-away database created for the file and dropped after it; without
// DATABASE_URL the PostgreSQL run is skipped with a warning, or fails when CI=true. A block that only
// passes through storage (describeOneBackend) runs once, on ONE_BACKEND.
import pg from 'pg';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app';
import { openDatabase, type Database, type Db } from '../../server/db/client';
import { sysUser } from '../../server/db/schema';

export type BackendName = 'pglite' | 'postgres';

const DATABASE_URL = process.env.DATABASE_URL?.trim() || undefined;

import { TEST_CONFIG } from './testConfig';

export { TEST_CONFIG };

export const ADMIN = { username: 'admin', password: 'Admin@123' };

export interface Envelope<T = any> {
  resCode: string;
  resMsg: string;
  resData: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  lang?: string;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  body: Envelope<T>;
  raw: Awaited<ReturnType<FastifyInstance['inject']>>;
}

export interface TestServer {
  backend: BackendName;
  app: FastifyInstance;
  database: Database;
  db: Db;
  /** Calls `/test-api${path}` through app.inject. */
  call<T = any>(method: InjectOptions['method'], path: string, options?: CallOptions): Promise<Answer<T>>;
  /**
   * Signs in and answers the token (throws on failure). A user the server forces to change their
   * password (first sign-in, administrator-set or expired password: every call but the change answers
   * 4007) is let off in the database, as if they had changed it, so tests about something else can act
   * as them; tests of the forced change sign in with `call('POST', '/login/login')` instead.
   */
  login(username?: string, password?: string): Promise<string>;
  /** Creates a user in the admin's current license account and answers its id. */
  createUser(fields: Record<string, unknown> & { name: string }, token?: string): Promise<number>;
  /** Another app instance on the same database (what a second server process would be). */
  anotherInstance(options?: Partial<BuildAppOptions>): Promise<FastifyInstance>;
  /** A database URL of the throw-away database (PostgreSQL only). */
  databaseUrl?: string;
}

const throwAwayDatabase = async () => {
  const name = `rvm_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    // a copy of the run's migrated template (tests/server/migratedTemplates.ts), or empty without one
    const template = inject('postgresTemplate');
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(DATABASE_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
};

export const startTestServer = async (backend: BackendName, options: Partial<BuildAppOptions> = {}) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  const throwAway = backend === 'postgres' ? await throwAwayDatabase() : undefined;
  if (throwAway) cleanups.push(throwAway.drop);
  // PGlite starts from the suite's migrated dump (tests/server/migratedTemplates.ts), not from initdb
  const database = await openDatabase({ databaseUrl: throwAway?.url, pgliteSnapshot: throwAway ? undefined : inject('pgliteSnapshot') });
  cleanups.push(() => database.close());
  const appOptions: BuildAppOptions = { ...options, database, config: { ...TEST_CONFIG, ...options.config } };
  const app = await buildApp(appOptions);
  // A listening app's clients may leave a connection that never sent a byte (fetch's pool, after a download is
  // cut): Node counts it busy, so app.close() would wait for its 60 s headers timeout. The file is done: drop them.
  cleanups.push(() => {
    app.server.closeAllConnections();
    return app.close();
  });

  const call = async <T = any>(method: InjectOptions['method'], path: string, { token, body, lang, headers }: CallOptions = {}): Promise<Answer<T>> => {
    const raw = await app.inject({
      method,
      url: `/test-api${path}`,
      headers: { ...(token ? { 'rvm-token': token } : {}), ...(lang ? { lang } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    const json = raw.headers['content-type']?.toString().includes('json') ? (raw.json() as Envelope<T>) : ({} as Envelope<T>);
    return { status: raw.statusCode, body: json, raw };
  };

  const login = async (username = ADMIN.username, password = ADMIN.password) => {
    const answer = await call('POST', '/login/login', { body: { username, password } });
    if (answer.body.resCode !== '00000') throw new Error(`login ${username}: ${answer.body.resCode} ${answer.body.resMsg}`);
    const { tokenInfo, userId, firstLogin, passwordExpired } = answer.body.resData;
    // The principal is read per request: the token just issued works at once.
    if (firstLogin || passwordExpired) await database.db.update(sysUser).set({ mustChangePassword: false, passwordChangedAt: new Date() }).where(eq(sysUser.id, userId));
    return tokenInfo.tokenValue as string;
  };

  const server: TestServer & { close(): Promise<void> } = {
    backend,
    app,
    database,
    db: database.db,
    databaseUrl: throwAway?.url,
    call,
    login,
    createUser: async (fields, token) => {
      const password = (fields.password as string | undefined) ?? 'Passw0rd!';
      const answer = await call('POST', '/user', {
        token: token ?? (await login()),
        body: { realname: `Real ${fields.name}`, password, confirmPassword: password, ...fields },
      });
      if (answer.body.resCode !== '00000') throw new Error(`create user ${fields.name}: ${answer.body.resCode} ${answer.body.resMsg}`);
      return answer.body.resData.id as number;
    },
    anotherInstance: async (extra = {}) => {
      const other = await buildApp({ ...appOptions, ...extra });
      cleanups.push(() => other.close());
      return other;
    },
    close: async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('cleanup failed', error));
    },
  };
  return server;
};

/**
 * The backend of a block that declares its behaviour storage-independent: PostgreSQL when DATABASE_URL is
 * set (CI always sets it: the production-like pool, and the cheaper start on a 2-core machine), PGlite
 * otherwise, so such a block runs everywhere without a skip.
 */
export const ONE_BACKEND: BackendName = DATABASE_URL ? 'postgres' : 'pglite';

/** Which backends a block runs on; TEST_BOTH_BACKENDS=1 runs every block on both (to check a classification). */
export type BackendScope = 'both' | 'one';

export const backendsFor = (scope: BackendScope): BackendName[] => (scope === 'both' || process.env.TEST_BOTH_BACKENDS === '1' ? ['pglite', 'postgres'] : [ONE_BACKEND]);

let warned = false;

/**
 * The matrix itself: `block(backend)` inside `describe(title [backend])` for each backend of `scope`. A
 * PostgreSQL run without DATABASE_URL is skipped with one warning, or fails under CI=true.
 */
export const describeMatrix = (scope: BackendScope, title: string, block: (backend: BackendName) => void, skipped: (backend: BackendName) => void = () => undefined) => {
  for (const backend of backendsFor(scope)) {
    if (backend === 'postgres' && !DATABASE_URL) {
      const message = 'DATABASE_URL is not set: the PostgreSQL run of the server suite is SKIPPED';
      if (process.env.CI === 'true') {
        describe(`${title} [postgres]`, () => {
          it('needs PostgreSQL in CI', () => {
            throw new Error(`${message.replace('is SKIPPED', 'cannot be skipped')} in CI`);
          });
        });
      } else {
        if (!warned) console.warn(`\n\u26a0  ${message} (set DATABASE_URL=postgres://… to run it).\n`);
        warned = true;
        describe.skip(`${title} [postgres]`, () => skipped(backend));
      }
      continue;
    }
    describe(`${title} [${backend}]`, () => block(backend));
  }
};

const describeServers = (scope: BackendScope, title: string, body: (server: TestServer, backend: BackendName) => void, options: Partial<BuildAppOptions>) =>
  describeMatrix(
    scope,
    title,
    (backend) => {
      const server = {} as TestServer & { close(): Promise<void> };
      beforeAll(async () => {
        Object.assign(server, await startTestServer(backend, options));
      });
      afterAll(async () => {
        await server.close?.();
      });
      body(server, backend);
    },
    (backend) => body({} as TestServer, backend),
  );

/**
 * Runs `body` once per backend with a fresh server (built before the tests of the block, closed after):
 * for behaviour that depends on storage. `server` is filled in by beforeAll, so use it inside tests and
 * hooks only.
 */
export const describeBackends = (title: string, body: (server: TestServer, backend: BackendName) => void, options: Partial<BuildAppOptions> = {}) =>
  describeServers('both', title, body, options);

/**
 * As describeBackends, on ONE_BACKEND only: for a block whose behaviour does not depend on storage (the
 * rules of docs/test-quality.md "One backend or both": no concurrency, second instance, raw SQL result,
 * driver or migration behaviour asserted, no test that looks at the backend).
 */
export const describeOneBackend = (title: string, body: (server: TestServer, backend: BackendName) => void, options: Partial<BuildAppOptions> = {}) =>
  describeServers('one', title, body, options);

/** Sets rows' timestamps into the past (simulating elapsed time without waiting). */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** A schema in the API reference, as the tests read it. */
export interface DocumentedSchema {
  type?: string | string[];
  format?: string;
  properties?: Record<string, DocumentedSchema>;
  items?: DocumentedSchema;
  [key: string]: unknown;
}
/** An operation in the API reference (/test-api/docs/json), as the tests read it. */
export interface DocumentedOperation {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: DocumentedSchema }>;
  requestBody?: { content: Record<string, { schema: DocumentedSchema }> };
  responses: Record<string, { content?: Record<string, { schema: DocumentedSchema }> }>;
}
/** The API reference's operations by path (with /test-api) and method, as the app serves them. */
export const documentedPaths = async (app: FastifyInstance) =>
  ((await app.inject({ method: 'GET', url: '/test-api/docs/json' })).json() as { paths: Record<string, Record<string, DocumentedOperation>> }).paths;

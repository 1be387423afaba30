// The compiled server as `npm start` runs it: scripts/build.mjs bundles server/ into a private folder
// (inside the repository, so the bundle's npm imports resolve), then `node <out>/server.js` runs with a
// temporary working directory, so a broken bundle fails here: a migrations folder not copied, a path
// resolved from the working directory or from server/ instead of the bundle, a worker entry missing,
// dev-only code at run time. Signs in through the API on a new data folder and again after a restart.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, postgresStore, ROOT, type Store } from '../robust/childServer';

const DATABASE_URL = process.env.DATABASE_URL?.trim() || undefined;
const START_LIMIT_MS = 180_000;

interface Running {
  url: string;
  stop(): Promise<void>;
}

const startBuilt = async (outDir: string, cwd: string, env: Record<string, string>): Promise<Running> => {
  const port = await freePort();
  const mqttPort = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [join(outDir, 'server.js')], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      LOG_LEVEL: 'warn',
      DEMO_FLEET: '0',
      PASSWORD_HASH_LOG_N: '12',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the built server exited while starting (${child.exitCode}):\n${output}`);
    const answered = await fetch(`${url}/test-api/login/current`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status === 401,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the built server did not answer within ${START_LIMIT_MS} ms:\n${output}`);
    }
    // the polling interval of a condition (listening yet?), not a sleep standing in for one
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      expect(child.exitCode, `a clean shutdown:\n${output}`).toBe(0);
    },
  };
};

const signIn = async (url: string) => {
  const response = await fetch(`${url}/test-api/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'Admin@123' }),
  });
  return (await response.json()) as { resCode: string; resData: { userName: string; firstLogin: boolean; version: string; tokenInfo: { tokenValue: string } } };
};

const packageVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the built server (scripts/build.mjs, node <out>/server.js)', () => {
  let outDir = '';
  let scratch = '';

  beforeAll(() => {
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, '.tmp', 'built-server-'));
    scratch = mkdtempSync(join(tmpdir(), 'rvm-built-server-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--server-only', '--out', outDir], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
  }, 320_000);

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('has the flat layout: server.js, a worker entry per *.worker.ts, migrations and the PGlite template', () => {
    expect(existsSync(join(outDir, 'server.js'))).toBe(true);
    // every migration drizzle's journal names (compared with the copy, not the source: others may add one meanwhile)
    const journal = JSON.parse(readFileSync(join(outDir, 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    expect(journal.entries.length).toBeGreaterThan(0);
    for (const { tag } of journal.entries) expect(existsSync(join(outDir, 'migrations', `${tag}.sql`)), tag).toBe(true);
    const workers = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? workers(join(dir, entry.name)) : entry.name.endsWith('.worker.ts') ? [entry.name.replace(/\.ts$/, '.js')] : [],
      );
    for (const worker of workers(join(ROOT, 'server'))) expect(existsSync(join(outDir, worker)), worker).toBe(true);
    expect(existsSync(join(outDir, 'pglite-template', 'PG_VERSION'))).toBe(true);
  });

  it('the PGlite template holds every migration, each named in its marker (a new folder only checks them at start)', async () => {
    const journal = JSON.parse(readFileSync(join(outDir, 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const marker = JSON.parse(readFileSync(join(outDir, 'pglite-template', '.pglite-version'), 'utf8')) as { migrations: Record<string, string> };
    expect(Object.keys(marker.migrations).sort()).toEqual(journal.entries.map((entry) => `${entry.tag}.sql`).sort());
    const copy = join(scratch, 'template-copy');
    cpSync(join(outDir, 'pglite-template'), copy, { recursive: true });
    const db = new PGlite({ dataDir: copy, extensions: { pg_trgm } });
    try {
      const applied = await db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows[0].n).toBe(journal.entries.length);
      const trigram = await db.query<{ n: number }>(`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`);
      expect(trigram.rows[0].n).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('starts on a new PGlite folder from a foreign working directory, signs in, and again after a restart', { timeout: 2 * START_LIMIT_MS + 60_000 }, async () => {
    const dataDir = join(scratch, 'data');
    const env = { DATA_DIR: dataDir, STATIC_DIR: join(scratch, 'no-console') };
    const first = await startBuilt(outDir, scratch, env);
    try {
      const answer = await signIn(first.url);
      expect(answer.resCode).toBe('00000');
      expect(answer.resData.userName).toBe('admin');
      expect(answer.resData.firstLogin).toBe(true);
      expect(answer.resData.version).toBe(packageVersion);
    } finally {
      await first.stop();
    }
    // made from the build's template: its compact WAL settings came along
    expect(readFileSync(join(dataDir, 'postgresql.auto.conf'), 'utf8')).toMatch(/wal_recycle = 'off'/);
    const again = await startBuilt(outDir, scratch, env);
    try {
      expect((await signIn(again.url)).resCode).toBe('00000');
    } finally {
      await again.stop();
    }
  });

  const onPostgres = DATABASE_URL ? it : process.env.CI === 'true' ? it : it.skip;
  onPostgres('starts on PostgreSQL (DATABASE_URL) and signs in', { timeout: START_LIMIT_MS + 60_000 }, async () => {
    if (!DATABASE_URL) throw new Error('DATABASE_URL is not set: the PostgreSQL run of the built server cannot be skipped in CI');
    const store: Store = await postgresStore(DATABASE_URL);
    try {
      const server = await startBuilt(outDir, scratch, { DATABASE_URL: store.kind === 'postgres' ? store.url : '', STATIC_DIR: join(scratch, 'no-console') });
      try {
        expect((await signIn(server.url)).resCode).toBe('00000');
      } finally {
        await server.stop();
      }
    } finally {
      await store.drop();
    }
  });
});

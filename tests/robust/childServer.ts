// The real server in a child process (`node --import tsx server/server.ts`, as `npm start` runs it
// without the console), on a PGlite data folder or a throw-away PostgreSQL database, API only: for
// the fault tests (SIGKILL, the database going away) and the load benchmark. Every wait is on a
// condition with a deadline, never a fixed sleep.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const ROOT = join(import.meta.dirname, '..', '..');
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/**
 * A port held by a listener of this process until `release()` (which may be called more than once): for a server
 * whose address must be known before it is built. With `freePort` the port is free again while the server is being
 * built, and anything else on the machine (a suite running beside, an outgoing connection's local port) can take
 * it meanwhile: a CI run once failed on EADDRINUSE that way. Release it just before listening.
 */
export const reservePort = () =>
  new Promise<{ port: number; release(): Promise<void> }>((resolve, reject) => {
    const holder = createServer();
    holder.once('error', reject);
    holder.listen(0, '127.0.0.1', () => {
      const address = holder.address();
      if (typeof address !== 'object' || !address) return reject(new Error('no port'));
      let released: Promise<void> | undefined;
      resolve({ port: address.port, release: () => (released ??= new Promise<void>((done) => holder.close(() => done()))) });
    });
  });

/** Where the server keeps its data: survives the process, so a restart finds it. */
export type Store = { kind: 'pglite'; dataDir: string; drop(): Promise<void> } | { kind: 'postgres'; url: string; name: string; drop(): Promise<void> };

export const pgliteStore = (): Extract<Store, { kind: 'pglite' }> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rvm-robust-'));
  return { kind: 'pglite', dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
};

/** Runs `statement` on the server of `baseUrl` (its own database). */
export const adminQuery = async (baseUrl: string, statement: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
};

/** A throw-away database next to `baseUrl`'s (dropped by `drop`, connections and all). */
export const postgresStore = async (baseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL): Promise<Store> => {
  const name = `rvm_robust_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
  await adminQuery(baseUrl, `create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { kind: 'postgres', url: url.toString(), name, drop: async () => void (await adminQuery(baseUrl, `drop database if exists "${name}" with (force)`)) };
};

export interface ChildServer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown code runs (no flush, no close). Resolves when the process is gone. */
  kill(): Promise<void>;
  /** SIGINT and wait for the clean shutdown (SIGKILL if it does not come within `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

export const startChildServer = async (store: Store, env: Record<string, string> = {}, startMs = 180_000): Promise<ChildServer> => {
  const port = await freePort();
  const mqttPort = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      MQTT_URL: '',
      SIMULATE: '',
      DEMO_FLEET: '0',
      STATIC_DIR: join(tmpdir(), 'rvm-robust-no-console'),
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_LOG_N: '12',
      // The per-address flood guard would count every call of one test from 127.0.0.1 (0: off).
      RATE_LIMIT_PER_MINUTE: '0',
      DATABASE_URL: store.kind === 'postgres' ? store.url : '',
      DATA_DIR: store.kind === 'pglite' ? store.dataDir : '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  };
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited while starting (${child.exitCode ?? child.signalCode}):\n${output}`);
    const ready = await fetch(`${url}/test-api/docs/json`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`the server did not answer within ${startMs} ms:\n${output}`);
    }
    // the polling interval of a condition (listening yet?), not a sleep standing in for one
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    child,
    output: () => output,
    kill,
    stop: async (graceMs = 30_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = exited(child);
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await gone;
      clearTimeout(timer);
    },
  };
};

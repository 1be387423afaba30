// Once per e2e run, before any file: builds the console into a private folder (the test servers serve it
// through STATIC_DIR, so a `npm run build` of dist/ by someone else in the same tree cannot change it
// mid-run), and makes the two data folders every test server starts from a copy of (harness.ts): one after a
// first start with the demo fleet, one with DEMO_FLEET=0. A first start initialises PGlite, migrates and
// seeds (~13 s of a 17 s start on this 2-core machine, the demo fleet most of it); a copy of a started folder
// opens in ~5 s, the same state a second `npm start` finds (docs/test-quality.md "One first start per run").
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../robust/childServer';
import { BUILD_TIMEOUT, SERVER_START_TIMEOUT } from './timeouts';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleDir: string;
    /** Data folders after a first start, by DEMO_FLEET: 'demo' (the default) and 'empty' (DEMO_FLEET=0). */
    dataTemplates: { demo: string; empty: string };
  }
}

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs a command to its end; its output shown only when it fails. */
const run = (command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} ended with ${code ?? signal}:\n${output}`))));
  });

/** The server's first start on `dataDir`, until it answers, then its clean shutdown (SIGINT closes PGlite). */
const firstStart = async (dataDir: string, demoFleet: boolean) => {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(await freePort()),
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    STATIC_DIR: `${dataDir}-no-console`,
    DEMO_FLEET: demoFleet ? '1' : '0',
    SIMULATE: '',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + SERVER_START_TIMEOUT;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the template server exited while starting:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/test-api/docs/json`, { signal: AbortSignal.timeout(5_000) }).then(
      async (response) => (await response.body?.cancel(), response.ok),
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the template server did not start within ${SERVER_START_TIMEOUT} ms:\n${output}`);
    }
    // the polling interval of a condition (listening yet?), not a sleep standing in for one
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGINT');
  if ((await exited) !== 0) throw new Error(`the template server did not shut down cleanly:\n${output}`);
};

export default async function setup(project: TestProject) {
  const outDir = mkdtempSync(join(tmpdir(), 'rvm-e2e-console-'));
  const demo = mkdtempSync(join(tmpdir(), 'rvm-e2e-template-demo-'));
  const empty = mkdtempSync(join(tmpdir(), 'rvm-e2e-template-empty-'));
  const cleanUp = () => [outDir, demo, empty].forEach((folder) => rmSync(folder, { recursive: true, force: true }));
  try {
    await Promise.all([
      // NODE_ENV=production: vitest sets `test`, which would build React's development bundles (not what users get)
      run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { ...process.env, NODE_ENV: 'production' }, BUILD_TIMEOUT),
      // the servers need no console to start (a STATIC_DIR that does not exist)
      firstStart(demo, true),
      firstStart(empty, false),
    ]);
  } catch (error) {
    cleanUp();
    throw error;
  }
  project.provide('consoleDir', outDir);
  project.provide('dataTemplates', { demo, empty });
  return cleanUp;
}

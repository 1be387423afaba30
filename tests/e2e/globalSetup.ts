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
import { startChildServer } from '../robust/childServer';
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
  // the robust suite's child server, with the e2e servers' own password cost: the admin's hash is stored at the seed
  const server = await startChildServer(
    { kind: 'pglite', dataDir, drop: async () => undefined },
    { DEMO_FLEET: demoFleet ? '1' : '0', PASSWORD_HASH_LOG_N: process.env.PASSWORD_HASH_LOG_N ?? '' },
    SERVER_START_TIMEOUT,
  );
  await server.stop();
  if (server.child.exitCode !== 0) throw new Error(`the template server did not shut down cleanly:\n${server.output()}`);
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

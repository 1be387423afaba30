// Builds the console once per e2e run, into a private folder: the test servers serve it through
// STATIC_DIR, so a `npm run build` of dist/ by someone else in the same tree cannot change it mid-run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { BUILD_TIMEOUT } from './timeouts';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleDir: string;
  }
}

export default function setup(project: TestProject) {
  const root = join(import.meta.dirname, '..', '..');
  const outDir = mkdtempSync(join(tmpdir(), 'rvm-e2e-console-'));
  // NODE_ENV=production: vitest sets `test`, which would build React's development bundles (not what users get)
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    timeout: BUILD_TIMEOUT,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  project.provide('consoleDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}

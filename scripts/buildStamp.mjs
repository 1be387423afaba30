// The build stamp: one hash over everything a build is made from (sources, lockfile, build script),
// written by scripts/build.mjs next to the server bundle and compared by scripts/start.mjs, so a start
// rebuilds only when something changed. Plain JavaScript: it runs without dev dependencies.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_OUT_DIR = join(ROOT, 'dist-server');
export const CONSOLE_OUT_DIR = join(ROOT, 'dist');
export const STAMP_FILE = 'build-stamp.json';

/** What the console and the server bundle are built from (tests, docs and benches are not). */
const INPUTS = [
  'server',
  'resources',
  'i18n',
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.app.json',
  'tsconfig.server.json',
  'package.json',
  'package-lock.json',
  'scripts',
];

const filesUnder = (path) => {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return (
    readdirSync(path, { withFileTypes: true })
      // node_modules: scripts/depcruise/ installs a TypeScript for the dependency check, no build input.
      .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .flatMap((entry) => filesUnder(join(path, entry.name)))
  );
};

/** SHA-256 over the inputs' names and contents (about 3 MB: a few tens of milliseconds). */
export const sourceHash = () => {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input))).sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
};

export const readStamp = (serverOutDir = SERVER_OUT_DIR) => {
  try {
    return JSON.parse(readFileSync(join(serverOutDir, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
};

/** Why the build in place cannot be used as it is, or null when it is complete and current. */
export const staleReason = (hash = sourceHash()) => {
  if (!existsSync(join(SERVER_OUT_DIR, 'server.js'))) return 'no server build';
  if (!existsSync(join(CONSOLE_OUT_DIR, 'index.html'))) return 'no console build';
  const stamp = readStamp();
  if (!stamp) return 'no build stamp';
  return stamp.hash === hash ? null : 'sources changed since the last build';
};

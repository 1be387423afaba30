// `npm run build`: the console (vite -> dist/) and the server (esbuild -> dist-server/), then the build stamp.
//   node scripts/build.mjs [--server-only] [--out DIR]
// The server bundle keeps a flat layout that the code relies on through `import.meta.url`:
//   <out>/server.js              server/server.ts and everything it imports (npm packages stay external)
//   <out>/<name>.worker.js       each server/**/<name>.worker.ts, an entry of its own (worker threads)
//   <out>/migrations/            server/db/migrations (server/db/client.ts: new URL('./migrations', import.meta.url))
//   <out>/pglite-template/       a PGlite cluster with every migration applied, copied into a new DATA_DIR (skips
//                                initdb, ~4 s, and the migrations, ~1 s); its marker names the PGlite version and
//                                each migration it holds by content hash (server/dataFolder.ts checks them)
//   <out>/build-stamp.json       hash of the inputs (scripts/buildStamp.mjs), compared by `npm start`
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CONSOLE_OUT_DIR, ROOT, SERVER_OUT_DIR, STAMP_FILE, sourceHash } from './buildStamp.mjs';

export const TEMPLATE_DIR_NAME = 'pglite-template';
const TEMPLATE_VERSION_FILE = '.pglite-version';
const MIGRATIONS_DIR = join(ROOT, 'server', 'db', 'migrations');

/** Each migration file by the hash of its content (the same hashes server/dataFolder.ts computes). */
const migrationHashes = () =>
  Object.fromEntries(
    readdirSync(MIGRATIONS_DIR)
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(MIGRATIONS_DIR, name)))
          .digest('hex'),
      ]),
  );

const workerEntries = (folder = join(ROOT, 'server')) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return workerEntries(path);
    return entry.name.endsWith('.worker.ts') ? [path] : [];
  });

const packageJson = () => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const pgliteVersion = () => JSON.parse(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version;

export const bundleServer = async (outDir) => {
  const { build } = await import('esbuild');
  const workers = workerEntries();
  const names = workers.map((file) => basename(file, '.ts'));
  const clash = names.find((name, index) => names.indexOf(name) !== index);
  if (clash) throw new Error(`two worker files are both named ${clash}.ts: the flat bundle layout needs unique names`);
  mkdirSync(outDir, { recursive: true });
  for (const stale of readdirSync(outDir)) if (/\.js(\.map)?$/.test(stale)) rmSync(join(outDir, stale));
  await build({
    entryPoints: [join(ROOT, 'server', 'server.ts'), ...workers],
    entryNames: '[name]',
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    // server/config.ts reads the version from package.json when run from source
    define: { __PACKAGE_VERSION__: JSON.stringify(packageJson().version) },
  });
  rmSync(join(outDir, 'migrations'), { recursive: true, force: true });
  cpSync(join(ROOT, 'server', 'db', 'migrations'), join(outDir, 'migrations'), { recursive: true });
  return { workers: names.map((name) => `${name}.js`) };
};

/**
 * An initialised PGlite cluster with compact write-ahead-log settings (old WAL segments are deleted at a
 * checkpoint instead of being kept for reuse: PostgreSQL keeps min_wal_size = 80 MB of them) and every
 * migration applied. Rebuilt when the installed PGlite version or a migration changes.
 */
export const buildPgliteTemplate = async (outDir) => {
  const target = join(outDir, TEMPLATE_DIR_NAME);
  const marker = JSON.stringify({ pglite: pgliteVersion(), migrations: migrationHashes() });
  if (existsSync(join(target, TEMPLATE_VERSION_FILE)) && readFileSync(join(target, TEMPLATE_VERSION_FILE), 'utf8') === marker) return false;
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // scratch folders of a build stopped midway (an hour old: a build running beside this one keeps its own)
  for (const entry of readdirSync(outDir)) {
    if (entry.startsWith('.template-') && Date.now() - statSync(join(outDir, entry)).mtimeMs > 3_600_000) rmSync(join(outDir, entry), { recursive: true, force: true });
  }
  const scratch = mkdtempSync(join(outDir, '.template-'));
  try {
    // pg_trgm as the server's worker loads it (server/db/pglite.worker.ts): the migrations create the extension
    const db = new PGlite({ dataDir: scratch, extensions: { pg_trgm } });
    await db.waitReady;
    await db.exec(`alter system set min_wal_size = '32MB'`);
    await db.exec(`alter system set wal_recycle = off`);
    await migrate(drizzle(db), { migrationsFolder: MIGRATIONS_DIR });
    await db.exec('checkpoint');
    await db.close();
    writeFileSync(join(scratch, TEMPLATE_VERSION_FILE), marker);
    // swapped by renames: a server copying the template now finds the old one whole, the new one whole, or none
    const retired = `${scratch}-retired`;
    if (existsSync(target)) renameSync(target, retired);
    renameSync(scratch, target);
    rmSync(retired, { recursive: true, force: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return true;
};

const buildConsole = async () => {
  const { build } = await import('vite');
  await build({ root: ROOT, logLevel: 'warn' });
};

/** What a step of the build is doing, for someone waiting at `npm start` (a first build takes a minute). */
const STEP_TEXT = {
  console: 'the console (vite)',
  server: 'the server bundle (esbuild)',
  pgliteTemplate: 'the initial database (PGlite, migrated)',
};

export const buildAll = async ({ serverOnly = false, outDir = SERVER_OUT_DIR, progress = () => undefined } = {}) => {
  const hash = sourceHash();
  const timings = {};
  const time = async (label, work) => {
    progress(`[build] building ${STEP_TEXT[label] ?? label}…`);
    const started = performance.now();
    const result = await work();
    timings[label] = Math.round(performance.now() - started);
    return result;
  };
  if (!serverOnly) await time('console', buildConsole);
  const { workers } = await time('server', () => bundleServer(outDir));
  await time('pgliteTemplate', () => buildPgliteTemplate(outDir));
  // Only a complete build of both halves may claim to be current.
  if (!serverOnly) writeFileSync(join(outDir, STAMP_FILE), `${JSON.stringify({ hash, builtAt: new Date().toISOString(), node: process.version, workers }, null, 2)}\n`);
  return { outDir, workers, timings };
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const { values } = parseArgs({ options: { 'server-only': { type: 'boolean', default: false }, out: { type: 'string' } } });
  const outDir = values.out ? resolve(values.out) : SERVER_OUT_DIR;
  const started = performance.now();
  const { timings, workers } = await buildAll({ serverOnly: values['server-only'], outDir, progress: (line) => console.log(line) });
  const where = values['server-only'] ? relative(ROOT, outDir) || '.' : `${relative(ROOT, CONSOLE_OUT_DIR)}/ and ${relative(ROOT, outDir)}/`;
  const parts = Object.entries(timings)
    .map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  console.log(`[build] ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s (${parts})${workers.length ? `; workers: ${workers.join(', ')}` : ''}`);
}

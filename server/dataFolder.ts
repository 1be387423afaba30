// A new PGlite data folder starts as a copy of the cluster `npm run build` initialised and migrated
// (dist-server/pglite-template, scripts/build.mjs): PGlite's own initdb costs ~4 s on a 2-core machine and
// the migrations ~1 s, the copy a few tens of milliseconds. Without a template (no build yet, another PGlite
// version, a migration it holds that has changed since) PGlite initialises the folder itself, as before;
// migrations added after the build run at start as on any database.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_FOLDER } from './db/client';
import { LOCK_FILE } from './dataFolderLock';

const TEMPLATE_VERSION_FILE = '.pglite-version';

/**
 * Beside the bundle (dist-server/server.js) or, from source (server/dataFolder.ts), in dist-server/.
 * PGLITE_TEMPLATE_DIR overrides it (a folder that does not exist: no template, PGlite's initdb).
 */
export const PGLITE_TEMPLATE_DIR =
  process.env.PGLITE_TEMPLATE_DIR?.trim() || fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../dist-server/pglite-template' : './pglite-template', import.meta.url));

const installedPgliteVersion = (): string | undefined => {
  try {
    // the package's entry is dist/index.js; its package.json is one folder up
    const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
};

interface TemplateMarker {
  pglite: string;
  /** Migration file → hash of its content, for each migration applied in the template. */
  migrations: Record<string, string>;
}

const readMarker = (file: string): TemplateMarker | undefined => {
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { pglite: text, migrations: {} }; // a template of an older build: initialised, not migrated
  }
  const marker = parsed as Partial<TemplateMarker> | null;
  if (typeof marker?.pglite !== 'string' || typeof marker.migrations !== 'object' || marker.migrations === null) return undefined;
  return { pglite: marker.pglite, migrations: marker.migrations };
};

/** The same hash scripts/build.mjs writes into the marker. */
const migrationHash = (name: string, folder: string) =>
  createHash('sha256')
    .update(readFileSync(join(folder, name)))
    .digest('hex');

/** drizzle's journal: the migrations in order, each with the time drizzle compares against the last one applied. */
const journalOf = (folder: string): Array<{ tag: string; when: number }> => {
  try {
    return (JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string; when: number }> }).entries;
  } catch {
    return [];
  }
};

/**
 * The installed PGlite's; every migration it holds is still the same file (a changed one would never run
 * again); and no migration it lacks is dated at or before the newest it holds: drizzle applies only the
 * journal entries newer than the last one applied, so such a migration (a branch merged late) would be
 * skipped on every folder made from it.
 */
export const usableTemplate = (template: string, migrationsFolder = MIGRATIONS_FOLDER): boolean => {
  const file = join(template, TEMPLATE_VERSION_FILE);
  if (!existsSync(file)) return false;
  const marker = readMarker(file);
  if (!marker || marker.pglite !== installedPgliteVersion()) return false;
  const held = Object.entries(marker.migrations);
  if (!held.every(([name, hash]) => typeof hash === 'string' && existsSync(join(migrationsFolder, name)) && migrationHash(name, migrationsFolder) === hash)) return false;
  const journal = journalOf(migrationsFolder);
  const newestHeld = Math.max(-Infinity, ...journal.filter((entry) => `${entry.tag}.sql` in marker.migrations).map((entry) => entry.when));
  return journal.every((entry) => `${entry.tag}.sql` in marker.migrations || entry.when > newestHeld);
};

/**
 * Creates `dataDir` when missing; fills it from the template when it is empty and a template of the
 * installed PGlite version exists. Answers whether the template was used.
 */
export const prepareDataFolder = (dataDir: string, template = PGLITE_TEMPLATE_DIR, migrationsFolder = MIGRATIONS_FOLDER): boolean => {
  mkdirSync(dataDir, { recursive: true });
  // the folder's lock file (server/dataFolderLock.ts) does not make it a database
  if (readdirSync(dataDir).some((name) => name !== LOCK_FILE) || !usableTemplate(template, migrationsFolder)) return false;
  cpSync(template, dataDir, { recursive: true, filter: (source) => !source.endsWith(TEMPLATE_VERSION_FILE) });
  return true;
};

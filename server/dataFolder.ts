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

const TEMPLATE_VERSION_FILE = '.pglite-version';

/**
 * Beside the bundle (dist-server/server.js) or, from source (server/dataFolder.ts), in dist-server/.
 * PGLITE_TEMPLATE_DIR overrides it (a folder that does not exist: no template, PGlite's initdb).
 */
export const PGLITE_TEMPLATE_DIR =
  process.env.PGLITE_TEMPLATE_DIR?.trim() ||
  fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../dist-server/pglite-template' : './pglite-template', import.meta.url));

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

const readMarker = (file: string): TemplateMarker => {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as TemplateMarker;
  } catch {
    return { pglite: text, migrations: {} }; // a template of an older build: initialised, not migrated
  }
};

/** The same hash scripts/build.mjs writes into the marker. */
const migrationHash = (name: string, folder: string) => createHash('sha256').update(readFileSync(join(folder, name))).digest('hex');

/** The installed PGlite's, and every migration it holds is still the same file (a changed one would never run again). */
export const usableTemplate = (template: string, migrationsFolder = MIGRATIONS_FOLDER): boolean => {
  const file = join(template, TEMPLATE_VERSION_FILE);
  if (!existsSync(file)) return false;
  const marker = readMarker(file);
  if (marker.pglite !== installedPgliteVersion()) return false;
  return Object.entries(marker.migrations ?? {}).every(
    ([name, hash]) => existsSync(join(migrationsFolder, name)) && migrationHash(name, migrationsFolder) === hash,
  );
};

/**
 * Creates `dataDir` when missing; fills it from the template when it is empty and a template of the
 * installed PGlite version exists. Answers whether the template was used.
 */
export const prepareDataFolder = (dataDir: string, template = PGLITE_TEMPLATE_DIR, migrationsFolder = MIGRATIONS_FOLDER): boolean => {
  mkdirSync(dataDir, { recursive: true });
  if (readdirSync(dataDir).length > 0 || !usableTemplate(template, migrationsFolder)) return false;
  cpSync(template, dataDir, { recursive: true, filter: (source) => !source.endsWith(TEMPLATE_VERSION_FILE) });
  return true;
};

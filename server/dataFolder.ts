// A new PGlite data folder starts as a copy of the cluster `npm run build` initialised
// (dist-server/pglite-template, scripts/build.mjs): PGlite's own initdb costs ~4 s on a 2-core machine,
// the copy a few tens of milliseconds. Without a template (no build yet, another PGlite version) PGlite
// initialises the folder itself, as before.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const usableTemplate = (template: string): boolean => {
  const marker = join(template, TEMPLATE_VERSION_FILE);
  if (!existsSync(marker)) return false;
  return readFileSync(marker, 'utf8') === installedPgliteVersion();
};

/**
 * Creates `dataDir` when missing; fills it from the template when it is empty and a template of the
 * installed PGlite version exists. Answers whether the template was used.
 */
export const prepareDataFolder = (dataDir: string, template = PGLITE_TEMPLATE_DIR): boolean => {
  mkdirSync(dataDir, { recursive: true });
  if (readdirSync(dataDir).length > 0 || !usableTemplate(template)) return false;
  cpSync(template, dataDir, { recursive: true, filter: (source) => !source.endsWith(TEMPLATE_VERSION_FILE) });
  return true;
};

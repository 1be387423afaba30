// Which PGlite template a new data folder may start from (server/dataFolder.ts): the build's cluster holds
// the migrations as they were at build time, and drizzle never runs a migration again once applied, so a
// template whose migrations have changed since must not be used. Temporary folders stand for the
// template and the migrations; the marker is written as scripts/build.mjs writes it.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareDataFolder, usableTemplate } from '../../server/dataFolder';
import { LOCK_FILE, lockDataFolder } from '../../server/dataFolderLock';

const PGLITE_VERSION = (JSON.parse(readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')) as { version: string }).version;
const hash = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the PGlite template a new data folder starts from', () => {
  let root = '';
  let template = '';
  let migrations = '';
  const marker = (content: unknown) => writeFileSync(join(template, '.pglite-version'), typeof content === 'string' ? content : JSON.stringify(content));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rvm-template-'));
    template = join(root, 'template');
    migrations = join(root, 'migrations');
    mkdirSync(template);
    writeFileSync(join(template, 'PG_VERSION'), '17');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '0000_init.sql'), 'create table a ();');
    writeFileSync(join(migrations, '0001_more.sql'), 'create table b ();');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const current = { '0000_init.sql': hash('create table a ();'), '0001_more.sql': hash('create table b ();') };

  it('is used when it was built by the installed PGlite with the migrations as they are', () => {
    marker({ pglite: PGLITE_VERSION, migrations: current });
    expect(usableTemplate(template, migrations)).toBe(true);
  });

  it('is used when migrations were added after the build (the start applies them)', () => {
    marker({ pglite: PGLITE_VERSION, migrations: { '0000_init.sql': current['0000_init.sql'] } });
    expect(usableTemplate(template, migrations)).toBe(true);
  });

  it('is not used when a migration it holds has changed or is gone', () => {
    marker({ pglite: PGLITE_VERSION, migrations: { ...current, '0001_more.sql': hash('create table c ();') } });
    expect(usableTemplate(template, migrations)).toBe(false);
    marker({ pglite: PGLITE_VERSION, migrations: { ...current, '0002_gone.sql': hash('x') } });
    expect(usableTemplate(template, migrations)).toBe(false);
  });

  it('is not used when another PGlite version built it, or when it has no marker', () => {
    marker({ pglite: '0.0.1', migrations: current });
    expect(usableTemplate(template, migrations)).toBe(false);
    rmSync(join(template, '.pglite-version'));
    expect(usableTemplate(template, migrations)).toBe(false);
  });

  it("an older build's marker (the version alone) means initialised, not migrated: used", () => {
    marker(PGLITE_VERSION);
    expect(usableTemplate(template, migrations)).toBe(true);
  });

  it('is copied into a new, empty data folder without its marker, and never over an existing one', () => {
    marker({ pglite: PGLITE_VERSION, migrations: current });
    const dataDir = join(root, 'data');
    expect(prepareDataFolder(dataDir, template, migrations)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['PG_VERSION']);
    writeFileSync(join(dataDir, 'PG_VERSION'), 'mine');
    expect(prepareDataFolder(dataDir, template, migrations)).toBe(false);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('mine');
    // a changed migration: a new folder is left empty (PGlite initialises it itself)
    marker({ pglite: PGLITE_VERSION, migrations: { ...current, '0000_init.sql': hash('changed') } });
    const other = join(root, 'other');
    expect(prepareDataFolder(other, template, migrations)).toBe(false);
    expect(readdirSync(other)).toEqual([]);
  });

  it('a new folder holding only its lock (the server locks it first) still starts from the template', () => {
    marker({ pglite: PGLITE_VERSION, migrations: current });
    const dataDir = join(root, 'locked');
    const release = lockDataFolder(dataDir);
    try {
      expect(prepareDataFolder(dataDir, template, migrations)).toBe(true);
      expect(readdirSync(dataDir).sort()).toEqual(['PG_VERSION', LOCK_FILE].sort());
    } finally {
      release();
    }
  });

  it('a marker that is not an object with a version is no template, and no crash', () => {
    for (const content of ['null', '{}', '{"pglite":"x"}']) {
      marker(content);
      expect(usableTemplate(template, migrations), content).toBe(false);
    }
  });

  it('is not used when a migration it lacks is dated at or before the newest it holds (drizzle would skip it)', () => {
    const journal = (entries: Array<[string, number]>) => {
      mkdirSync(join(migrations, 'meta'), { recursive: true });
      writeFileSync(join(migrations, 'meta', '_journal.json'), JSON.stringify({ entries: entries.map(([tag, when]) => ({ tag, when })) }));
    };
    writeFileSync(join(migrations, '0002_late.sql'), 'create table c ();');
    marker({ pglite: PGLITE_VERSION, migrations: current });
    journal([
      ['0000_init', 100],
      ['0001_more', 200],
      ['0002_late', 200],
    ]);
    expect(usableTemplate(template, migrations)).toBe(false);
    journal([
      ['0000_init', 100],
      ['0001_more', 200],
      ['0002_late', 150],
    ]);
    expect(usableTemplate(template, migrations)).toBe(false);
    journal([
      ['0000_init', 100],
      ['0001_more', 200],
      ['0002_late', 201],
    ]);
    expect(usableTemplate(template, migrations)).toBe(true);
  });
});

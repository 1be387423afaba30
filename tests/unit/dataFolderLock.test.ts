// One process per PGlite data folder (server/dataFolderLock.ts): a second server or seed on a folder in use
// is refused before it opens it; a lock whose process has ended is taken over; the lock file does not count
// as a database when a new folder starts from the template.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUse, LOCK_FILE, lockDataFolder } from '../../server/dataFolderLock';

describe('the data folder lock', () => {
  let dataDir = '';
  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'rvm-lock-')), 'data');
  });
  afterEach(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

  const lockOf = (holder: { pid: number; host?: string }) =>
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: holder.pid, host: holder.host ?? hostname(), since: '2026-11-27T00:00:00.000Z' }));

  it('creates the folder and names this process; the release removes the file and the folder can be taken again', () => {
    const release = lockDataFolder(dataDir);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUse); // twice in one process: refused too
    release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    lockDataFolder(dataDir)();
  });

  it('refuses a folder held by a running process, saying which and how to go on', () => {
    lockDataFolder(dataDir)();
    lockOf({ pid: process.ppid });
    expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUse);
    try {
      lockDataFolder(dataDir);
    } catch (error) {
      expect((error as Error).message).toContain(`process ${process.ppid} on ${hostname()}`);
      expect((error as Error).message).toContain('DATA_DIR=');
    }
  });

  it('takes over the lock of a process that has ended, and of this pid from a previous life', () => {
    const ended = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    lockDataFolder(dataDir)();
    lockOf({ pid: ended });
    const release = lockDataFolder(dataDir);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    release();
    lockOf({ pid: process.pid }); // e.g. a container restarted with the same pid
    lockDataFolder(dataDir)();
  });

  it('treats a lock from another machine as held (its process cannot be checked)', () => {
    lockDataFolder(dataDir)();
    lockOf({ pid: process.ppid, host: `${hostname()}-elsewhere` });
    expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUse);
  });
});

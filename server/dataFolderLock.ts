// One process per PGlite data folder (README, "Configuration": DATA_DIR). PGlite has no lock of its own, and
// two processes writing one folder corrupt it: a second `npm start` that migrated the folder of a running one
// (and then failed on the taken port) left "pg_attribute catalog is missing 3 attribute(s)" behind. The lock
// is a file in the folder naming its process; a lock whose process has ended is taken over.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'rvm-console.lock';

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export class DataFolderInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | null,
  ) {
    const who = holder ? `process ${holder.pid} on ${holder.host}, since ${holder.since}` : 'another process';
    super(
      `the data folder ${dataDir} is in use by ${who}: stop that server (or 'npm run seed') first, or start this one with DATA_DIR=<another folder>. ` +
        `If no server uses it, delete ${join(dataDir, LOCK_FILE)}.`,
    );
  }
}

/** Folders this process holds: its own pid in a lock file means a previous life (a restarted container) otherwise. */
const held = new Set<string>();

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const readHolder = (path: string): Holder | null => {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? { pid: holder.pid, host: holder.host, since: String(holder.since ?? '?') } : null;
  } catch {
    return null; // being written, or not ours: treated as held
  }
};

/** Whether the lock's holder may still be writing: on another machine it cannot be checked, so yes. */
const stillHeld = (holder: Holder | null, path: string) => {
  if (!holder) return true;
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return held.has(path);
  return running(holder.pid);
};

/** Takes `dataDir` for this process (creating it), or throws DataFolderInUse; answers the release. */
export const lockDataFolder = (dataDir: string): (() => void) => {
  mkdirSync(dataDir, { recursive: true });
  const path = resolve(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() } satisfies Holder));
      closeSync(fd);
      held.add(path);
      const release = () => {
        if (!held.delete(path)) return;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (stillHeld(holder, path)) throw new DataFolderInUse(dataDir, holder);
      try {
        unlinkSync(path); // its process has ended: a stale lock
      } catch {
        // another process took it over first: the next attempt says who holds it
      }
    }
  }
  throw new DataFolderInUse(dataDir, readHolder(path));
};

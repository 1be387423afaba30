// File storage in a folder (docs/files.md "Storage"): one file per key below the root. A put writes a
// `.part` file beside its target and renames it when the stream has ended, so a reader never sees half a
// file and a broken upload leaves nothing (the part file is removed).
import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, FileStorage, StoredObject } from './storage';

/** Keys are the server's own (server/files/upload.ts); anything else is refused rather than resolved. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

export const createFolderStorage = (folder: string, onClose: () => Promise<void> = async () => undefined): FileStorage => {
  const root = resolve(folder);
  const pathOf = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe file storage key: ${key}`);
    return join(root, key);
  };
  const statOf = async (key: string): Promise<StoredObject | null> => {
    try {
      const info = await stat(pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    description: `folder ${root}`,
    async put(key, body: Readable) {
      const target = pathOf(key);
      const part = `${target}.part-${randomUUID()}`;
      await mkdir(dirname(target), { recursive: true });
      try {
        await pipeline(body, createWriteStream(part, { flags: 'wx' }));
        await rename(part, target);
      } catch (error) {
        body.destroy();
        await rm(part, { force: true });
        throw error;
      }
    },
    async get(key, range?: ByteRange) {
      if (!(await statOf(key))) return null;
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
    },
    stat: statOf,
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    close: onClose,
  };
};

/** A folder of its own under the system's temporary folder, removed with everything in it on close. */
export const createTemporaryFolderStorage = (): FileStorage => {
  const folder = mkdtempSync(join(tmpdir(), 'rvm-files-'));
  return createFolderStorage(folder, () => rm(folder, { recursive: true, force: true }));
};

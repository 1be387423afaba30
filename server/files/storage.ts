// Where uploaded files' bytes live (docs/files.md "Storage"): one interface, two implementations: a folder
// (the default: DATA_DIR/files, or a temporary folder removed on close when the server has no data folder,
// as its database is then in memory) and S3-compatible object storage, chosen by FILES_S3_URL alone.
// Keys are made by the server (server/files/upload.ts), never from a client's file name.
import type { Readable } from 'node:stream';
import { createFolderStorage, createTemporaryFolderStorage } from './folderStorage';
import { createS3Storage } from './s3Storage';

/** Bytes `start` to `end`, both included (HTTP's Range arithmetic). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  size: number;
}

export interface FileStorage {
  /** What it is, for the log: `folder <path>` or `s3 <endpoint>/<bucket>`. */
  readonly description: string;
  /**
   * Stores the stream's bytes under `key`. Nothing is left under `key` (nor anywhere else) when the stream
   * fails or is destroyed before its end: a half-written object is removed before the promise rejects.
   */
  put(key: string, body: Readable, contentType?: string): Promise<void>;
  /** The bytes (a range of them), or null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /** Removes the object; a key that does not exist is no error. */
  delete(key: string): Promise<void>;
  /** Releases what the storage holds (the temporary folder, the S3 client's sockets). */
  close(): Promise<void>;
}

export interface StorageSettings {
  /** The folder's root; absent: a temporary folder, removed on close. */
  folder?: string;
  /** FILES_S3_URL: `http(s)://<key>:<secret>@<host>[:port]/<bucket>[/<prefix>][?region=<region>]`; wins over `folder`. */
  s3Url?: string;
}

export const createFileStorage = async ({ folder, s3Url }: StorageSettings): Promise<FileStorage> => {
  if (s3Url) return createS3Storage(s3Url);
  return folder ? createFolderStorage(folder) : createTemporaryFolderStorage();
};

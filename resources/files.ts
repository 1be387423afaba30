// Uploaded files as field values (`image` and `file` kinds, docs/files.md): the limits each kind has
// unless its declaration says otherwise, and the metadata the server answers. Shared by the console
// (checks before sending, the upload input) and the server (the authority: it checks the bytes).
import type { FieldDeclaration, FieldType } from './types';

export type FileKind = Extract<FieldType, 'image' | 'file'>;

export const isFileKind = (type: FieldType): type is FileKind => type === 'image' || type === 'file';

const MB = 1024 * 1024;

/** An accept list of `undefined` takes any type. */
export const FILE_KIND_DEFAULTS: Readonly<Record<FileKind, { maxBytes: number; accept?: readonly string[] }>> = {
  image: { maxBytes: 5 * MB, accept: ['image/png', 'image/jpeg', 'image/webp'] },
  file: { maxBytes: 50 * MB },
};

/** The longest side of an image's thumbnail, in pixels (made on upload). */
export const THUMBNAIL_PIXELS = 160;
/** A file name longer than this is cut (its extension kept). */
export const FILE_NAME_MAX = 255;
/** What an upload is stored as when its bytes match no known type: readable UTF-8 text, or anything else. */
export const TEXT_MIME = 'text/plain';
export const UNKNOWN_MIME = 'application/octet-stream';

export interface FileLimits {
  maxBytes: number;
  accept?: readonly string[];
  /** A media field's exact size in pixels (docs/files.md "Media sizes"). */
  dimensions?: { width: number; height: number };
}

/** The field's own limits, else its kind's. */
export const fileLimitsOf = (field: Pick<FieldDeclaration, 'type' | 'maxBytes' | 'accept' | 'dimensions'>): FileLimits => {
  const defaults = FILE_KIND_DEFAULTS[field.type as FileKind] ?? FILE_KIND_DEFAULTS.file;
  return { maxBytes: field.maxBytes ?? defaults.maxBytes, accept: field.accept ?? defaults.accept, ...(field.dimensions ? { dimensions: field.dimensions } : {}) };
};

/** How a media field's errors name a format: JPG, PNG, MP4 … (the MIME type itself when it has no short name). */
const FORMAT_NAMES: Readonly<Record<string, string>> = { 'image/jpeg': 'JPG', 'image/png': 'PNG', 'image/webp': 'WEBP', 'image/gif': 'GIF', 'video/mp4': 'MP4' };
export const formatName = (mime: string): string => FORMAT_NAMES[mime] ?? mime;
export const formatList = (accept: readonly string[] | undefined): string => (accept ?? []).map(formatName).join('/');
export const sizeText = (size: { width: number; height: number }): string => `${size.width}×${size.height}`;

/** `mime` is one of `accept` (`image/*` covers every image type); no list accepts everything. */
export const mimeAccepted = (mime: string, accept: readonly string[] | undefined): boolean =>
  !accept || accept.some((allowed) => allowed === mime || (allowed.endsWith('/*') && mime.startsWith(allowed.slice(0, -1))));

/** An uploaded file as the server answers it (`GET /file/info`, the upload's answer). */
export interface FileInfo {
  id: number;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
  hasThumbnail: boolean;
  createdTime: string;
}

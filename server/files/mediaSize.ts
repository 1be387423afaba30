// The size in pixels of an uploaded picture or video, read from its stored bytes (docs/files.md "Media sizes"):
// pictures through sharp's header reading (EXIF orientation applied: a portrait photo stored sideways counts as it
// is shown), MP4 through its boxes: the video track's `tkhd` width and height (with its rotation matrix), found
// without reading the media data (`mdat`), so a 50 MB video costs a few small range reads wherever `moov` sits.
import type { FileStorage } from './storage';

export interface PixelSize {
  width: number;
  height: number;
}

/** The largest `moov` read whole; real ones are a few KB to a few MB (their sample tables). */
const MOOV_MAX_BYTES = 16 * 1024 * 1024;

const readRange = async (storage: FileStorage, key: string, start: number, length: number): Promise<Buffer> => {
  const stream = await storage.get(key, { start, end: start + length - 1 });
  if (!stream) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

interface Box {
  type: string;
  /** Where its payload starts and ends, relative to the buffer it was found in. */
  start: number;
  end: number;
}

/** The boxes directly inside `buffer[from, to)`. */
const childBoxes = (buffer: Buffer, from: number, to: number): Box[] => {
  const boxes: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    boxes.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return boxes;
};

const fixed16 = (buffer: Buffer, at: number) => buffer.readInt32BE(at) / 65536;

/** A track's displayed size from its `tkhd` payload (ISO 14496-12 8.3.2), or null when it has none. */
const trackHeaderSize = (buffer: Buffer, box: Box): PixelSize | null => {
  const version = buffer[box.start];
  const matrix = box.start + (version === 1 ? 52 : 40);
  if (matrix + 44 > box.end) return null;
  const width = Math.round(fixed16(buffer, matrix + 36));
  const height = Math.round(fixed16(buffer, matrix + 40));
  if (width === 0 || height === 0) return null;
  // a matrix whose a and d are 0 turns the picture a quarter: shown as height × width
  const quarterTurn = buffer.readInt32BE(matrix) === 0 && buffer.readInt32BE(matrix + 16) === 0;
  return quarterTurn ? { width: height, height: width } : { width, height };
};

/** The first video track's size inside a `moov` payload. */
export const videoSizeInMoov = (moov: Buffer): PixelSize | null => {
  for (const trak of childBoxes(moov, 0, moov.length).filter((box) => box.type === 'trak')) {
    const inside = childBoxes(moov, trak.start, trak.end);
    const mdia = inside.find((box) => box.type === 'mdia');
    const hdlr = mdia && childBoxes(moov, mdia.start, mdia.end).find((box) => box.type === 'hdlr');
    // hdlr: version/flags (4), pre_defined (4), handler_type (4)
    const handler = hdlr && hdlr.start + 12 <= hdlr.end ? moov.toString('latin1', hdlr.start + 8, hdlr.start + 12) : null;
    const tkhd = inside.find((box) => box.type === 'tkhd');
    if (handler === 'vide' && tkhd) return trackHeaderSize(moov, tkhd);
  }
  return null;
};

/** An MP4's video size, walking its top-level boxes by range reads; null when it has no readable video track. */
export const mp4Size = async (storage: FileStorage, key: string, fileSize: number): Promise<PixelSize | null> => {
  let at = 0;
  while (at + 8 <= fileSize) {
    const head = await readRange(storage, key, at, Math.min(16, fileSize - at));
    if (head.length < 8) return null;
    let size = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    let header = 8;
    if (size === 1) {
      if (head.length < 16) return null;
      size = Number(head.readBigUInt64BE(8));
      header = 16;
    } else if (size === 0) size = fileSize - at;
    if (size < header || at + size > fileSize) return null;
    if (type === 'moov') {
      if (size - header > MOOV_MAX_BYTES) return null;
      return videoSizeInMoov(await readRange(storage, key, at + header, size - header));
    }
    at += size;
  }
  return null;
};

/** A picture's size as shown (EXIF orientations 5–8 turn it a quarter), or null when sharp cannot read it. */
export const imageSize = async (storage: FileStorage, key: string): Promise<PixelSize | null> => {
  const source = await storage.get(key);
  if (!source) return null;
  try {
    const { default: sharp } = await import('sharp');
    const reader = sharp({ failOn: 'error' });
    source.pipe(reader);
    const metadata = await reader.metadata();
    if (!metadata.width || !metadata.height) return null;
    const turned = (metadata.orientation ?? 1) >= 5;
    return turned ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  } catch {
    return null;
  } finally {
    source.destroy();
  }
};

/** The stored file's size in pixels by its type (judged from the bytes); null for a type with no size or unreadable bytes. */
export const mediaSize = async (storage: FileStorage, key: string, mimeType: string, fileSize: number): Promise<PixelSize | null> => {
  if (mimeType === 'video/mp4') return mp4Size(storage, key, fileSize);
  if (mimeType.startsWith('image/')) return imageSize(storage, key);
  return null;
};

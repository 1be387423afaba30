// What a promotion package holds (docs/promotions.md#deploying): a tar archive with `promotion.json` (the
// option's schedule and ordered items, and the account's default promotion) and every media file once, under
// `media/<sha256>.<ext>`, so a machine needs nothing but the package to show it. Read from the caller's account.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { formatName } from '../../resources/files';
import { PROMOTION_SLOTS, type PromotionSlot } from '../../resources/promotions';
import type { Db } from '../db/client';
import { uploadedFile } from '../db/schema/files';
import { defaultPromotion, promotionItem, promotionOption, promotionResource } from '../db/schema/promotions';
import type { FileStorage } from '../files/storage';
import { AppError } from '../lib/errors';

const SLOTS = Object.keys(PROMOTION_SLOTS) as PromotionSlot[];

interface MediaRef {
  path: string;
  sha256: string;
  format: string;
  size: number;
}

type ResourceRow = typeof promotionResource.$inferSelect;
type FileRow = typeof uploadedFile.$inferSelect;

export interface PromotionManifest {
  v: 1;
  option: { id: number; name: string; startDate: string; endDate: string; days: string[]; startHour: number; endHour: number } | null;
  items: Array<{ position: number; durationSeconds: number; resource: ManifestResource }>;
  default: { durationSeconds: number; resource: ManifestResource } | null;
}
type ManifestResource = { id: number; name: string } & Partial<Record<PromotionSlot, MediaRef>>;

const extensionOf = (mime: string) => formatName(mime).toLowerCase();

/** The manifest and the files it names (by storage key), for an option (or none: the default promotion alone). */
export const promotionManifest = async (db: Db, account: number, optionId: number | undefined) => {
  const option =
    optionId === undefined
      ? undefined
      : (
          await db
            .select()
            .from(promotionOption)
            .where(and(eq(promotionOption.id, optionId), eq(promotionOption.licenseAccountId, account)))
        )[0];
  if (optionId !== undefined && !option) throw new AppError('2003');
  const items = option ? await db.select().from(promotionItem).where(eq(promotionItem.optionId, option.id)).orderBy(asc(promotionItem.position), asc(promotionItem.id)) : [];
  if (option && items.length === 0) throw new AppError('9801');
  const [fallback] = await db.select().from(defaultPromotion).where(eq(defaultPromotion.licenseAccountId, account));
  if (!option && !fallback) throw new AppError('9802');
  const resourceIds = [...new Set([...items.map((item) => item.resourceId), ...(fallback ? [fallback.resourceId] : [])])];
  const resources = new Map<number, ResourceRow>(
    (
      await db
        .select()
        .from(promotionResource)
        .where(and(inArray(promotionResource.id, resourceIds), eq(promotionResource.licenseAccountId, account)))
    ).map((row) => [row.id, row]),
  );
  const fileIds = [...resources.values()].flatMap((row) => SLOTS.map((slot) => row[slot]).filter((id): id is number => id !== null));
  const files = new Map<number, FileRow>(fileIds.length ? (await db.select().from(uploadedFile).where(inArray(uploadedFile.id, fileIds))).map((row) => [row.id, row]) : []);
  const media = new Map<string, { key: string; path: string }>();
  const describe = (id: number): ManifestResource => {
    const row = resources.get(id);
    if (!row) throw new AppError('2003');
    const described: ManifestResource = { id: row.id, name: row.name };
    for (const slot of SLOTS) {
      const file = row[slot] === null ? undefined : files.get(row[slot]);
      if (!file) continue;
      const path = `media/${file.sha256}.${extensionOf(file.mimeType)}`;
      media.set(path, { key: file.storageKey, path });
      described[slot] = { path, sha256: file.sha256, format: formatName(file.mimeType), size: file.size };
    }
    return described;
  };
  const manifest: PromotionManifest = {
    v: 1,
    option: option
      ? {
          id: option.id,
          name: option.name,
          startDate: option.startDate,
          endDate: option.endDate,
          days: option.days.split(',').map((day) => day.trim()),
          startHour: option.startHour,
          endHour: option.endHour,
        }
      : null,
    items: items.map((item) => ({ position: item.position, durationSeconds: item.durationSeconds, resource: describe(item.resourceId) })),
    default: fallback ? { durationSeconds: fallback.durationSeconds, resource: describe(fallback.resourceId) } : null,
  };
  return { manifest, option, media: [...media.values()] };
};

// ---- a plain POSIX tar (ustar), enough for a machine's `tar -x`: regular files only, names under 100 bytes

const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0') + '\0';

const tarHeader = (name: string, size: number, mtime: number): Buffer => {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(mtime, 12), 136);
  header.fill(' ', 148, 156); // the checksum counts itself as spaces
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  header.write(octal(checksum, 7) + ' ', 148);
  return header;
};

export const tarOf = (entries: ReadonlyArray<{ name: string; content: Buffer }>): Buffer => {
  const mtime = Math.floor(Date.now() / 1000);
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(tarHeader(entry.name, entry.content.length, mtime), entry.content);
    const pad = (512 - (entry.content.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
};

const readAll = async (storage: FileStorage, key: string): Promise<Buffer> => {
  const stream = await storage.get(key);
  if (!stream) throw new AppError('9602');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** The package's bytes: the manifest first, then each media file. */
export const promotionArchive = async (storage: FileStorage, manifest: PromotionManifest, media: ReadonlyArray<{ key: string; path: string }>) => {
  const entries: Array<{ name: string; content: Buffer }> = [{ name: 'promotion.json', content: Buffer.from(JSON.stringify(manifest, null, 2)) }];
  for (const file of media) entries.push({ name: file.path, content: await readAll(storage, file.key) });
  return tarOf(entries);
};

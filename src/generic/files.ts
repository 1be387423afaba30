// What the image and file fields of the generic views share (docs/files.md): the upload client, uploaded
// files' metadata (one `GET /file/info` for the ids a page shows together, kept: a file never changes
// under its id) and thumbnails (fetched with the token, shown through object URLs).
import { useEffect, useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import { sizeText, type FileInfo, type FileLimits } from '../../resources/files';
import { useConsoleServices } from '../layout/ConsoleServices';
import { bridgedNotify } from '../layout/notifySink';
import type { DownloadClient, HttpClient, UploadClient } from '../providers/httpTypes';
import { createResumableUploadClient } from '../providers/resumableUpload';
import { createUploadClient } from '../providers/upload';
import { formatBytes } from './format';

/**
 * The console's upload client, with the session and the page's language of the other clients. `resumable`: sent
 * with tus, going on after a broken connection (docs/files.md "Resumable uploads"), for file fields (up to 50 MB,
 * packages among them); images (up to 5 MB) go in one request.
 */
export const useUploadClient = ({ resumable = false }: { resumable?: boolean } = {}): UploadClient => {
  const { session, reload } = useConsoleServices();
  const translate = useTranslate();
  return useMemo(() => {
    const options = { session, notify: bridgedNotify, translate, onForcedLogout: () => reload() };
    return resumable ? createResumableUploadClient(options) : createUploadClient(options);
  }, [session, reload, translate, resumable]);
};

type Translate = ReturnType<typeof useTranslate>;

/** "PNG, JPEG, WEBP" (Chinese: "PNG、JPEG、WEBP") for the field's accept list, or "any type"; `image/*` stays as written. */
export const acceptedTypes = (translate: Translate, limits: FileLimits) =>
  limits.accept
    ? limits.accept.map((mime) => (mime.endsWith('/*') ? mime : (mime.split('/')[1] ?? mime).toUpperCase())).join(translate('generic.file.typeSeparator'))
    : translate('generic.file.anyType');

export const limitsText = (translate: Translate, limits: FileLimits) => {
  const text = translate('generic.file.limits', { types: acceptedTypes(translate, limits), max: formatBytes(limits.maxBytes) });
  // a media field's exact size (docs/files.md "Media sizes"), e.g. "1080×1110 pixels exactly"
  return limits.dimensions ? `${text} · ${translate('generic.file.exactSize', { size: sizeText(limits.dimensions) })}` : text;
};

type InfoAnswer = FileInfo | null;

/** Metadata by id, asked for in one call per tick; per http client, so each session (and each test) has its own. */
class FileInfoLoader {
  private readonly known = new Map<number, Promise<InfoAnswer>>();
  private waiting = new Map<number, (info: InfoAnswer) => void>();

  constructor(private readonly http: HttpClient) {}

  remember(info: FileInfo) {
    this.known.set(info.id, Promise.resolve(info));
  }

  load(id: number): Promise<InfoAnswer> {
    let answer = this.known.get(id);
    if (!answer) {
      answer = new Promise<InfoAnswer>((resolve) => this.waiting.set(id, resolve));
      this.known.set(id, answer);
      if (this.waiting.size === 1) queueMicrotask(() => void this.flush());
    }
    return answer;
  }

  private async flush() {
    const batch = this.waiting;
    this.waiting = new Map();
    const ids = [...batch.keys()];
    for (let start = 0; start < ids.length; start += 100) {
      const slice = ids.slice(start, start + 100);
      const found = await this.http.get<FileInfo[]>('/file/info', { ids: slice }, { silent: true }).catch(() => null);
      // a failed call is forgotten (asked again next time); a file not found is remembered as none
      for (const id of slice) {
        if (!found) this.known.delete(id);
        batch.get(id)?.(found?.find((info) => info.id === id) ?? null);
      }
    }
  }
}

const loaders = new WeakMap<HttpClient, FileInfoLoader>();
const loaderOf = (http: HttpClient) => {
  let loader = loaders.get(http);
  if (!loader) loaders.set(http, (loader = new FileInfoLoader(http)));
  return loader;
};

/** Tells the loader about a file just uploaded (no call needed to show it). */
export const useRememberFileInfo = () => {
  const { http } = useConsoleServices();
  return (info: FileInfo) => loaderOf(http).remember(info);
};

/** undefined while loading, null when the file is not available (unknown, another account's, the call failed). */
export const useFileInfo = (id: unknown): FileInfo | null | undefined => {
  const { http } = useConsoleServices();
  const wanted = typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
  const [info, setInfo] = useState<{ id: number; info: InfoAnswer } | null>(null);
  useEffect(() => {
    if (wanted === null) return;
    let current = true;
    void loaderOf(http)
      .load(wanted)
      .then((answer) => current && setInfo({ id: wanted, info: answer }));
    return () => {
      current = false;
    };
  }, [http, wanted]);
  if (wanted === null) return null;
  return info?.id === wanted ? info.info : undefined;
};

const THUMBNAILS_KEPT = 300;
const thumbnails = new WeakMap<DownloadClient, Map<number, Promise<string | null>>>();

/** An object URL of the image's thumbnail, or null (none, or it could not be fetched). */
const thumbnailUrl = (download: DownloadClient, id: number): Promise<string | null> => {
  let kept = thumbnails.get(download);
  if (!kept) thumbnails.set(download, (kept = new Map()));
  let url = kept.get(id);
  if (!url) {
    url = download
      .download('GET', `/file/${id}/thumbnail`, { silent: true })
      .then(({ blob }) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null))
      .catch(() => null);
    kept.set(id, url);
    // the oldest go first; their URLs are released
    for (const [oldId, oldUrl] of kept) {
      if (kept.size <= THUMBNAILS_KEPT) break;
      kept.delete(oldId);
      void oldUrl.then((text) => text && URL.revokeObjectURL(text));
    }
  }
  return url;
};

export const useThumbnailUrl = (info: FileInfo | null | undefined): string | null => {
  const { download } = useConsoleServices();
  const id = info?.hasThumbnail ? info.id : null;
  const [url, setUrl] = useState<{ id: number; url: string | null } | null>(null);
  useEffect(() => {
    if (id === null) return;
    let current = true;
    void thumbnailUrl(download, id).then((text) => current && setUrl({ id, url: text }));
    return () => {
      current = false;
    };
  }, [download, id]);
  return id !== null && url?.id === id ? url.url : null;
};

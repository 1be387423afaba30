// A download the user watches and may cancel: its progress for DownloadProgressDialog, the file saved when it
// arrives. A failure needs no message here (the download client shows 'Download failed'), nor does a cancel.
import { useRef, useState } from 'react';
import { saveBlob } from '../providers/download';
import type { DownloadProgress } from './DownloadProgressDialog';

interface FetchOptions {
  signal: AbortSignal;
  onProgress: (progress: DownloadProgress) => void;
}

export const useSavedDownload = () => {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  /** `size`: what the bar shows until the server says (undefined: bytes received only). */
  const run = async (size: number | undefined, fetchFile: (options: FetchOptions) => Promise<{ blob: Blob; filename: string }>) => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ loaded: 0, total: size });
    try {
      const { blob, filename } = await fetchFile({ signal: controller.signal, onProgress: ({ loaded, total }) => setProgress({ loaded, total: total ?? size }) });
      saveBlob(blob, filename);
    } catch {
      // already said by the download client, or cancelled
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };
  return { progress, run, cancel: () => abort.current?.abort() };
};

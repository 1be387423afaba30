// Report files are rendered off the request loop (docs/reports.md "Files"): in worker threads, at most
// RENDERS_AT_ONCE per process (later ones wait their turn), kept for the next render once started. A
// render whose caller goes away (the download was cancelled) is ended at once: its thread is ended.
import type { Worker } from 'node:worker_threads';
import type { Locale } from '../../i18n';
import type { ReportFormat } from '../../resources/reports';
import { startWorkerThread } from '../lib/workerThread';
import type { RenderedReport } from './generate';
import type { ReportData, ReportRange } from './query';

export interface RenderJob {
  data: ReportData;
  range: ReportRange;
  format: ReportFormat;
  locale: Locale;
}

/** The caller went away: nothing to answer. */
export class RenderCancelled extends Error {
  constructor() {
    super('report rendering cancelled by its caller');
  }
}

/** Two cores here: two renders at once leave the event loop its share. */
const RENDERS_AT_ONCE = 2;
const idle: Worker[] = [];
let running = 0;
const waiting: Array<() => void> = [];

const start = () => startWorkerThread(new URL('./render.worker.js', import.meta.url), new URL('./render.worker.ts', import.meta.url), null);

const turn = (signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (running < RENDERS_AT_ONCE) {
      running++;
      return resolve();
    }
    const go = () => {
      signal?.removeEventListener('abort', cancel);
      running++;
      resolve();
    };
    const cancel = () => {
      waiting.splice(waiting.indexOf(go), 1);
      reject(new RenderCancelled());
    };
    waiting.push(go);
    signal?.addEventListener('abort', cancel, { once: true });
  });

const leave = () => {
  running--;
  waiting.shift()?.();
};

interface Answer {
  fileName?: string;
  contentType?: string;
  content?: Uint8Array;
  error?: string;
}

export const renderInWorker = async (job: RenderJob, signal?: AbortSignal): Promise<RenderedReport> => {
  if (signal?.aborted) throw new RenderCancelled();
  await turn(signal);
  const worker = idle.pop() ?? start();
  worker.ref();
  let reusable = false;
  try {
    return await new Promise<RenderedReport>((resolve, reject) => {
      const abort = () => void worker.terminate();
      const settle = () => {
        signal?.removeEventListener('abort', abort);
        worker.off('exit', exited);
        worker.off('error', reject);
      };
      const exited = (code: number) => {
        settle();
        reject(signal?.aborted ? new RenderCancelled() : new Error(`the report render thread ended (code ${code})`));
      };
      signal?.addEventListener('abort', abort, { once: true });
      worker.once('exit', exited);
      worker.once('error', reject);
      worker.once('message', (answer: Answer) => {
        settle();
        reusable = true;
        if (answer.error !== undefined || !answer.content) return reject(new Error(answer.error ?? 'no file'));
        resolve({
          fileName: answer.fileName!,
          contentType: answer.contentType!,
          content: Buffer.from(answer.content.buffer, answer.content.byteOffset, answer.content.byteLength),
        });
      });
      worker.postMessage(job);
    });
  } finally {
    if (reusable) {
      worker.unref();
      idle.push(worker);
    } else void worker.terminate();
    leave();
  }
};

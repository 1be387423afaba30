// What the AI training screens ask the server (docs/ai-training.md) and the shapes it answers.
import { useEffect, useState } from 'react';
import { useConsoleServices } from '../layout/ConsoleServices';
import type { DownloadClient } from '../providers/httpTypes';

export interface Sample {
  id: number;
  label: string | null;
  labelledBy: string | null;
  labelledTime: string | null;
  itemType: string;
  rejectReason: number | null;
  confidence: number | null;
  capturedTime: string;
  termNo: string;
}

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface LabelAnswer {
  labels: string[];
  counts: Array<{ label: string | null; samples: number }>;
}

export interface SampleJob {
  id: number;
  status: 'running' | 'done' | 'failed';
  total: number;
  processed: number;
  added: number;
  failure: string | null;
  createdTime: string | null;
  finishedTime: string | null;
}

export interface TrainingTask {
  id: number;
  basicModel: string;
  newModelName: string;
  taskType: 'classification' | 'motion';
  status: string;
  epochs: number;
  labels: string[];
  progress: Array<{ epoch: number; loss: number; accuracy: number; seconds: number }>;
  accuracy: number | null;
  confusion: number[][] | null;
  trainCount: number | null;
  testCount: number | null;
  expectedRemainingSeconds: number | null;
  startedTime: string | null;
  completedTime: string | null;
  failure: string | null;
  packageId: number | null;
  createdTime: string | null;
}

const pictures = new WeakMap<DownloadClient, Map<number, Promise<string | null>>>();
const KEPT = 400;

/** An object URL of a sample's picture (fetched with the session's token), or null while loading or when missing. */
export const useSamplePicture = (id: number): string | null => {
  const { download } = useConsoleServices();
  const [url, setUrl] = useState<{ id: number; url: string | null } | null>(null);
  useEffect(() => {
    let kept = pictures.get(download);
    if (!kept) pictures.set(download, (kept = new Map()));
    let pending = kept.get(id);
    if (!pending) {
      pending = download
        .download('GET', `/ai/sample/${id}/picture`, { silent: true })
        .then(({ blob }) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null))
        .catch(() => null);
      kept.set(id, pending);
      for (const [oldId, oldUrl] of kept) {
        if (kept.size <= KEPT) break;
        kept.delete(oldId);
        void oldUrl.then((text) => text && URL.revokeObjectURL(text));
      }
    }
    let current = true;
    void pending.then((text) => current && setUrl({ id, url: text }));
    return () => {
      current = false;
    };
  }, [download, id]);
  return url?.id === id ? url.url : null;
};

/** A model a training task made (Image classification's choice). */
export interface TrainedModel {
  packageId: number;
  name: string;
  version: string;
  taskId: number;
  accuracy: number | null;
  labels: string[];
}

/** A pool sample with what a model says about it. */
export interface Prediction {
  id: number;
  label: string | null;
  predicted: string;
  confidence: number;
  labelledBy: string | null;
  capturedTime: string | null;
  termNo: string;
}

export interface ConfusionAnswer {
  labels: string[];
  /** matrix[true label][model's label] */
  matrix: number[][];
  perLabel: Array<{ label: string; support: number; predicted: number; precision: number | null; recall: number | null }>;
  total: number;
  correct: number;
  accuracy: number | null;
  pool: number;
  predicted: number;
}

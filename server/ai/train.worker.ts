// A training run on a thread of its own (server/ai/trainer.ts): minutes of CPU that would otherwise hold
// every request of the process. It gets the decoded samples, posts each epoch's figures, stops after the
// current epoch when told, and answers with the held-out figures and the model file.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { serializeClassifier, trainClassifier, type LabelledInput } from './classifier';

export interface TrainJob {
  samples: LabelledInput[];
  labels: string[];
  epochs: number;
  holdOut: number;
  meta: Record<string, unknown>;
}

export type TrainMessage =
  | { type: 'epoch'; epoch: number; epochs: number; loss: number; accuracy: number; seconds: number }
  | { type: 'done'; stopped: boolean; epochs: number; accuracy: number; confusion: number[][]; trainCount: number; testCount: number; seconds: number; file: Uint8Array }
  | { type: 'error'; message: string };

// The thread yields the cores to requests (docs/ai-training.md "Trainer"): on Linux a thread's nice value is its
// own, and setpriority on 0 is the calling thread; elsewhere it would be the whole server's, so it is left as is.
const TRAINING_NICE = 15;
if (process.platform === 'linux') setPriority(0, TRAINING_NICE);

let stop = false;
parentPort!.on('message', (message: { type: 'train'; job: TrainJob } | { type: 'stop' }) => {
  if (message.type === 'stop') {
    stop = true;
    return;
  }
  const { job } = message;
  trainClassifier(job.samples, {
    labels: job.labels,
    epochs: job.epochs,
    holdOut: job.holdOut,
    shouldStop: () => stop,
    onEpoch: (report) => parentPort!.postMessage({ type: 'epoch', ...report } satisfies TrainMessage),
  }).then(
    (outcome) => {
      const file = new Uint8Array(serializeClassifier(outcome.weights, job.labels, { ...job.meta, accuracy: outcome.accuracy }));
      const { weights: _weights, model: _model, ...figures } = { ...outcome, model: undefined };
      parentPort!.postMessage({ type: 'done', ...figures, file } satisfies TrainMessage, [file.buffer]);
    },
    (error: unknown) => parentPort!.postMessage({ type: 'error', message: String((error as Error)?.message ?? error) } satisfies TrainMessage),
  );
});

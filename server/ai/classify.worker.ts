// Running a trained model over pictures on a thread of its own (server/ai/classify.ts): a thousand pictures
// take seconds of CPU that would otherwise hold every request of the process. It gets the model file and
// the decoded inputs and answers with each input's label index and confidence.
import { parentPort } from 'node:worker_threads';
import { disposeClassifier, loadClassifier, predict } from './classifier';

export interface ClassifyJob {
  model: Uint8Array;
  inputs: Float32Array[];
}

export type ClassifyMessage = { type: 'done'; labels: string[]; guesses: Array<{ label: number; confidence: number }> } | { type: 'error'; message: string };

const BATCH = 128;

parentPort!.once('message', (job: ClassifyJob) => {
  loadClassifier(Buffer.from(job.model.buffer, job.model.byteOffset, job.model.byteLength)).then(
    ({ weights, labels }) => {
      const guesses: Array<{ label: number; confidence: number }> = [];
      for (let from = 0; from < job.inputs.length; from += BATCH) guesses.push(...predict(weights, job.inputs.slice(from, from + BATCH)));
      disposeClassifier(weights);
      parentPort!.postMessage({ type: 'done', labels, guesses } satisfies ClassifyMessage);
    },
    (error: unknown) => parentPort!.postMessage({ type: 'error', message: String((error as Error)?.message ?? error) } satisfies ClassifyMessage),
  );
});

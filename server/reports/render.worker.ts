// Report files rendered on a thread of their own (server/reports/renderInWorker.ts): building a large
// XLSX takes seconds of CPU that would otherwise hold every other request of the process.
import { parentPort } from 'node:worker_threads';
import { renderReport } from './generate';
import type { RenderJob } from './renderInWorker';

parentPort!.on('message', (job: RenderJob) => {
  renderReport(job.data, job.range, job.format, job.locale).then(
    (file) => {
      const bytes = new Uint8Array(file.content.buffer, file.content.byteOffset, file.content.byteLength).slice();
      parentPort!.postMessage({ fileName: file.fileName, contentType: file.contentType, content: bytes }, [bytes.buffer]);
    },
    (error: unknown) => parentPort!.postMessage({ error: String((error as Error)?.message ?? error) }),
  );
});

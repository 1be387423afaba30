// Starting a worker thread from its file: the compiled one beside the bundled server
// (`<out>/<name>.worker.js`, see scripts/build.mjs), else the TypeScript source through tsx's API
// (development, tests): on Node 20 a worker's `--import tsx` does not reach its entry file, so a
// one-line loader imports it instead. Both URLs are the caller's (`new URL('./x.worker.js', import.meta.url)`):
// bundled, the caller's module is the server bundle; from source, it is the caller's own file.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export const startWorkerThread = (compiled: URL, source: URL, workerData: unknown): Worker => {
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, { workerData });
  // require.resolve answers the CommonJS build; the loader needs the ES module one beside it.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const loader = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(source.href)}))`;
  return new Worker(loader, { eval: true, workerData });
};

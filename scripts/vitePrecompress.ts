// Vite plugin: after the build, every text asset (JS, CSS, HTML, SVG, JSON, maps excluded) is also
// written as .br (brotli, max quality) and .gz (gzip level 9), so the server sends compressed files
// without compressing per request (@fastify/static `preCompressed`, server/lib/console.ts).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export const PRECOMPRESSED_EXTENSIONS = /\.(js|mjs|css|html|svg|json|txt)$/;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** Writes `<file>.br` and `<file>.gz` beside every compressible file under `dir`; answers how many files. */
export const precompressFolder = (dir: string): number => {
  const files = filesUnder(dir).filter((file) => PRECOMPRESSED_EXTENSIONS.test(file));
  for (const file of files) {
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
  return files.length;
};

export const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'rvm-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const count = precompressFolder(outDir);
      this.info?.(`precompressed ${count} files (.br, .gz)`);
    },
  };
};

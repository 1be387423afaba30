// Runs dependency-cruiser (`node scripts/depcruise/run.mjs <its arguments>`, see `npm run lint:deps`) with
// TypeScript 6 as its parser. dependency-cruiser 17 parses TypeScript with the classic compiler API
// (typescript >=2 <7) and, without it, cruises no .ts file at all: 0 modules, a silent pass. This project's `typescript` is 7
// (native, no JS API), so dependency-cruiser's own look-ups of `typescript` (an ESM import and a CJS require of
// its package.json) are pointed at the 6.0 installed beside this file; nothing else sees it (no bin, not hoisted).
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// Without that TypeScript the cruiser finds nothing and passes: refuse to run instead (e.g. a checkout whose
// scripts/depcruise/node_modules was never installed: `npm install` installs it).
try {
  const { version } = Module.createRequire(here + 'package.json')('typescript/package.json');
  if (Number(version.split('.')[0]) >= 7) throw new Error(`TypeScript ${version} has no classic compiler API`);
} catch (error) {
  console.error(`lint:deps: no TypeScript < 7 beside ${here} (${error.message}); run npm install`);
  process.exit(2);
}
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, isMain, options) {
  const fromCruiser = parent?.filename?.includes('/node_modules/dependency-cruiser/');
  if (fromCruiser && (request === 'typescript' || request.startsWith('typescript/'))) {
    return resolveFilename.call(this, request, parent, isMain, { paths: [here] });
  }
  return resolveFilename.call(this, request, parent, isMain, options);
};
register('./hooks.mjs', import.meta.url);

process.argv.splice(1, 1, 'depcruise');
await import('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

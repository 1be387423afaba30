// The vitest configuration Stryker runs (stryker.config.mjs): the console's own (vite.config.ts) with
// only the projects whose tests are worth running against a mutant. `unit` (Hong Kong time) and
// `server` (PGlite per file: run without DATABASE_URL, both-backend and one-backend blocks alike take PGlite,
// tests/server/helpers.ts ONE_BACKEND); not `unit-ny` (the same files again), nor `e2e` / `robust`, which start
// servers and browsers and would make every mutant cost minutes.
import { defineConfig } from 'vitest/config';
import base from './vite.config.js';

const KEPT = new Set(['unit', 'server']);

type Project = { test?: { name?: string; isolate?: boolean } };

// Stryker re-runs the same few test files for every mutant; without isolation a test file's imports
// (react-admin, MUI, PGlite) are loaded once per worker instead of once per mutant. MUTATION_ISOLATE=1
// restores vitest's isolation should a test ever depend on a fresh module state.
const isolate = process.env.MUTATION_ISOLATE === '1';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: (base.test?.projects as Project[]).filter((project) => KEPT.has(project.test?.name ?? '')).map((project) => ({ ...project, test: { ...project.test, isolate } })),
  },
} as typeof base);

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vitePrecompress.js';
import { chunkFileNames } from './scripts/chunkNames.js';
import { nativeBuiltins } from './scripts/nativeBuiltins.js';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT, UI_TIMEOUT } from './tests/e2e/timeouts.js';
import { TIME_ZONE_TESTS } from './tests/timing/timeZoneTests.js';

// One config for the console build (vite) and the three test projects (vitest).
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), nativeBuiltins(), precompress()],
  root: '.',
  // Lazy chunks named after their menu area; every file also as .br/.gz (issue 8).
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2500, rolldownOptions: { output: { chunkFileNames } } },
  server: { port: 5173, proxy: { '/test-api': apiTarget } },
  test: {
    projects: [
      // The console's local-time rules run twice: in a zone east of UTC without daylight saving and in
      // one west of UTC with it, so showing UTC (or 12-hour clocks) cannot pass by coincidence. Only the
      // files that read local time run the second time (tests/timing/timeZoneTests.ts); the first run's
      // probe fails a file that reads it without being listed.
      ...(
        [
          ['unit', 'Asia/Hong_Kong', ['tests/unit/**/*.test.{ts,tsx}'], 'on'],
          ['unit-ny', 'America/New_York', TIME_ZONE_TESTS.map((file) => `tests/unit/${file}`), 'off'],
        ] as const
      ).map(([name, timeZone, include, probe]) => ({
        extends: true as const,
        test: {
          name,
          include: [...include],
          environment: 'node',
          // one module graph per worker: react-admin, MUI and jsdom are loaded once, not once per file (3.3 times less
          // CPU for the two runs); each file still builds its own harness: fake server, storage, session (docs/test-quality.md "Time budget")
          isolate: false,
          env: { TZ: timeZone, TZ_PROBE: probe },
          setupFiles: ['tests/unit/timeZone.setup.ts', 'tests/unit/testingLibrary.setup.ts', 'tests/unit/localTimeProbe.setup.ts'],
        },
      })),
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/migratedTemplates.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/globalSetup.ts'],
          // conditions, not sleeps, bound every wait: see tests/e2e/timeouts.ts
          testTimeout: E2E_TEST_TIMEOUT,
          hookTimeout: E2E_HOOK_TIMEOUT,
          expect: { poll: { timeout: UI_TIMEOUT, interval: 100 } },
          fileParallelism: false,
        },
      },
      {
        // `npm run test:robust` only (npm test names its projects): the full authorization matrix and
        // fuzz, and fault injection with child-process servers, on PGlite and PostgreSQL (DATABASE_URL).
        extends: true,
        test: {
          name: 'robust',
          include: ['tests/robust/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30 * 60_000,
          hookTimeout: 30 * 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

// Every end-to-end wait is on a condition, bounded by one of these. They are sized for a busy 2-core
// machine (a vite build, another test suite and a server seeding its demo fleet at the same time):
// a healthy console answers in well under a second, so hitting one of them means something is wrong.

/** A UI condition: an element, a URL, a polled value (Playwright actions and expect.poll). */
export const UI_TIMEOUT = 30_000;
/** The real server's start: migrations, seeding the demo fleet on a fresh PGlite database. */
export const SERVER_START_TIMEOUT = 180_000;
/** One test: a user path of up to a few hundred steps, each bounded by UI_TIMEOUT. */
export const E2E_TEST_TIMEOUT = 600_000;
/** beforeAll / afterAll: a server start plus API arrangements. */
export const E2E_HOOK_TIMEOUT = SERVER_START_TIMEOUT + 120_000;
/** Building the console once for the run (globalSetup). */
export const BUILD_TIMEOUT = 600_000;

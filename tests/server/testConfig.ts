// The configuration every test server starts with (beside each test's own), shared with the suite's set-up
// (tests/server/migratedTemplates.ts), which loads no test runner.
import type { ServerConfig } from '../../server/config';

/** scrypt at 2^12 (below OWASP's table, so p = 1) instead of production's 2^15 p=3: same code path, ~20x faster tests. */
export const TEST_CONFIG: Partial<ServerConfig> = { passwordHashLogN: 12 };

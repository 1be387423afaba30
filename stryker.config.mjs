// Mutation testing (issue 13): `npm run test:mutation [-- --folder <folder> ...]`, driven by
// scripts/mutationReport.mjs, which narrows `mutate` to the folders asked for and writes the scores
// per folder into docs/test-quality.md. Not part of `npm test`: the whole run takes hours.
/** The folders whose mutation score is the measure of the suite (docs/test-quality.md). */
// server/session held the sign-in, password and license-account routes as server/routes until 2026-11-27 (its scores
// in docs/test-quality.md are under that name); the saved-filter routes moved to server/savedFilters then
export const MUTATED_FOLDERS = [
  'server/auth',
  'server/crud',
  'server/session',
  'server/savedFilters',
  'server/configuredTypes',
  'server/dashboard',
  'server/commands',
  'server/gateway',
  'src/providers',
  'src/permissions',
  'resources',
];

/**
 * The tests dedicated to a folder (Stryker's `testFiles`): a mutant there runs only these, so the score
 * says whether the folder's own tests pin its behaviour, and a run takes minutes instead of hours (a
 * menu-visibility mutant is otherwise re-checked by every rendered screen). `--all-tests` (or a folder
 * without an entry) runs every related test of the `unit` and `server` projects instead.
 */
export const FOLDER_TESTS = {
  'src/permissions': [
    'tests/unit/permissions.test.ts',
    'tests/unit/canAccess.test.ts',
    'tests/unit/canAccessHooks.test.tsx',
    'tests/unit/permissionIdentity.test.ts',
    'tests/unit/menu.test.ts',
    'tests/unit/menuVisibility.rules.test.ts',
  ],
  // passwordCipherLazy.test.ts takes a module graph of its own per test (vi.resetModules), so it runs without isolation too
  'src/providers': [
    'tests/unit/{authProvider,authProviderEdges,dataProvider,dataProviderEdges,download,downloadRules,http,httpRules,i18n,i18nProvider,localTime,passwordCipherLazy,passwordCookie,recordLabels,saveBlob,sessionStore}.test.ts',
  ],
  // the unit tests of the shared declarations and rules (the server's use of them is measured under server/*)
  resources: [
    'tests/unit/{commandParams,configuredTypes,configuredTypesRules,declarationInputs,displayRules,generic.helpers,i18n,menu,menuVisibility.rules,passwordRules,permissionIdentity,permissions,recordLabels,resourceHelpers,resourceTypes.model,shell,validation,validationRules}.test.ts',
  ],
  // the server folders' own suites (PGlite per file: every covering file's set-up runs again per mutant)
  // the folder's dedicated tests (one server): the route suites (login, tokens, securitySignin, stateless,
  // password, accountsAndScope: ~14 s a mutant on the shared machine) pin the same rules through HTTP;
  // routeGuard/passwordHashing.test.ts mock modules, which needs isolation (off here)
  'server/auth': ['tests/server/{authRules,authCaller,authLimits}.test.ts', 'tests/unit/callerCache.test.ts'],
  // server/crud is measured in parts (FOLDER_PARTS below); this is every file of its parts
  'server/crud': ['tests/server/{crudRules,crudEdges,crudRoutes,export}.test.ts'],
  // routeSchemas builds its apps inside its tests: the route declarations run at build time, and only code a test itself ran counts as covered by it
  'server/session': ['tests/server/{login,password,accountsAndScope,securitySignin,routeSchemas}.test.ts'],
  'server/savedFilters': ['tests/server/{savedFilter,routeSchemas}.test.ts'],
  // issue 29 item 24: the folders' own suites (one server each, PGlite)
  // server/configuredTypes is measured in parts (FOLDER_PARTS below); this is every file of its parts
  'server/configuredTypes': ['tests/server/{configuredTypesRules,configuredTypesStore}.test.ts'],
  // server/dashboard is measured in parts (FOLDER_PARTS below); this is every file of its parts
  'server/dashboard': ['tests/server/{dashboardCompute,dashboard}.test.ts', 'tests/unit/dashboardCatalogue.test.ts'],
  // the command suites, the expiry edges and the generated protocol reference (reference.ts writes its command table)
  'server/commands': ['tests/server/{commands,commandsBatch,commandExpiry,commandRules,commandRoutes,commandStream,auditLog}.test.ts', 'tests/unit/protocolReference.test.ts'],
  // the gateway suites over the embedded broker (Stryker sets no MQTT_TEST_URL), the limits at their edges, the
  // firmware conformance check and the generated protocol reference
  'server/gateway': ['tests/server/{gateway,gatewayAck,gatewayHostile,gatewayEdges,conformance}.test.ts', 'tests/unit/protocolReference.test.ts'],
};

/**
 * Folders measured in parts: each part mutates some of the folder's files with only the tests dedicated to
 * them, and scripts/mutationReport.mjs merges the parts' reports into the folder's. server/crud: its code runs
 * under every server test, and a mutant re-runs each covering file's server set-up; with its 7 route suites
 * the estimate was 3.5-4 h (2026-11-24, load 7-10), so the engine's fixture suites are the list (crudRules and
 * crudRoutes on a server, crudEdges without one), plus export.test.ts for export.ts alone (its set-up creates 26 users).
 */
export const FOLDER_PARTS = {
  // dashboard.test.ts builds its fleet (24 machines, sessions through the gateway) before its tests: ~44 s of a
  // 46 s dry run, again for every mutant it covers (~20 s a mutant at load 9, 2026-11-28); the arithmetic is
  // measured against dashboardCompute.test.ts (a fake database) and the catalogue's unit test instead
  'server/dashboard': [
    { mutate: ['server/dashboard/{compute,periods,reference}.ts'], tests: ['tests/server/dashboardCompute.test.ts', 'tests/unit/dashboardCatalogue.test.ts'] },
    { mutate: ['server/dashboard/{definitions,rollup,routes,usage}.ts'], tests: ['tests/server/{dashboardCompute,dashboard}.test.ts'] },
  ],
  // its rules without a database (stored form, index specs, SQL text, body formats) against their own test, the
  // database and route side against the store suite (one server; direct calls of the store, registry and files), in
  // parts small enough to finish. With the three route suites a mutant took ~13 s, with the store and delete suites
  // ~60 s (2026-11-28, load 12-15: 721 and 423 mutants, 2.5 h and more). indexes.ts is split by lines: its specs
  // (pure) and its DDL (database).
  'server/configuredTypes': [
    {
      mutate: ['server/configuredTypes/{definitionRow,model,validate}.ts', 'server/configuredTypes/indexes.ts:1-57'],
      tests: ['tests/server/configuredTypesRules.test.ts'],
    },
    { mutate: ['server/configuredTypes/{files,index,permissionRows}.ts'], tests: ['tests/server/configuredTypesStore.test.ts'] },
    { mutate: ['server/configuredTypes/registry.ts', 'server/configuredTypes/indexes.ts:58-200'], tests: ['tests/server/configuredTypesStore.test.ts'] },
    { mutate: ['server/configuredTypes/store.ts'], tests: ['tests/server/configuredTypesStore.test.ts'] },
    { mutate: ['server/configuredTypes/{recordRoutes,typeRoutes}.ts'], tests: ['tests/server/configuredTypesStore.test.ts'] },
  ],
  // the command rules (queueing, the state machine, records, audit rows, the generated reference) against the command,
  // batch, expiry and rules suites and the audit log's (create.ts's batch path runs only under the batch suite, the
  // audit route under the audit log's); the route handlers, batches and
  // the live stream (SSE polls, ~10 s a mutant) against both command suites, the stream's and the routes' edges
  'server/commands': [
    {
      mutate: ['server/commands/{audit,create,records,reference,shared,store}.ts'],
      tests: ['tests/server/{commands,commandsBatch,commandExpiry,commandRules,auditLog}.test.ts', 'tests/unit/protocolReference.test.ts'],
    },
    { mutate: ['server/commands/{routes,batch,stream}.ts'], tests: ['tests/server/{commands,commandsBatch,commandRoutes,commandStream}.test.ts'] },
  ],
  // ~1,000 mutants under the broker suites (~1.5 h at concurrency 2): in parts that finish within a sitting, each
  // against every gateway suite (a message passes the protocol, the handlers and the ingest in one test)
  'server/gateway': [
    { mutate: ['server/gateway/{protocol,protocolReference,refusals,quarantine,intake}.ts'], tests: FOLDER_TESTS['server/gateway'] },
    { mutate: ['server/gateway/{handlers,ingest}.ts'], tests: FOLDER_TESTS['server/gateway'] },
    { mutate: ['server/gateway/{brokers,credentials,index,liveState,routes,types}.ts'], tests: FOLDER_TESTS['server/gateway'] },
  ],
  'server/crud': [
    { mutate: ['server/crud/export.ts'], tests: ['tests/server/{crudRules,export}.test.ts'] },
    { mutate: ['server/crud/**/*.ts', '!server/crud/export.ts'], tests: ['tests/server/{crudRules,crudEdges,crudRoutes}.test.ts'] },
  ],
};

/** The test files for a run over `folders`, or undefined (every related test) if one has no list. */
export const testFilesFor = (folders) => (folders.every((folder) => FOLDER_TESTS[folder]) ? [...new Set(folders.flatMap((folder) => FOLDER_TESTS[folder]))] : undefined);

/** Stryker's `mutate` globs for some of those folders (scripts/mutationReport.mjs passes its own). */
export const mutatePatterns = (folders) => folders.map((folder) => `${folder}/**/*.{ts,tsx}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // only the unit and server projects (stryker.vitest.config.ts): never e2e or robust
  // forks, not Stryker's default threads: the unit project pins TZ, which a worker thread cannot change
  vitest: { configFile: 'stryker.vitest.config.ts', related: true, pool: 'forks' },
  // each mutant runs only the tests that executed its code in the dry run
  coverageAnalysis: 'perTest',
  // module-level code (declarations, tables, constants) would need every test for every mutant; a
  // static mutant left unrun is counted as "ignored", not as a survivor
  ignoreStatic: true,
  // the machine is shared: one sandbox at a time
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
  mutate: mutatePatterns(MUTATED_FOLDERS),
  // server tests wait on PGlite: a slow machine must not turn them into false "timeout" kills
  timeoutMS: 30_000,
  timeoutFactor: 2,
  // the first run of every related test, on a machine other jobs share
  dryRunTimeoutMinutes: 60,
  reporters: ['json', 'html', 'clear-text', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // not incremental: with --testFiles it kept survivors as survivors after new tests covering them were added
  // anchored (gitignore syntax): a bare 'reports' would also drop src/reports
  ignorePatterns: ['/.stryker-tmp*', '/dist', '/dist-server', '/data', '/.tmp', '/test-results', '/reports', '/bench'],
  // Stryker rewrites tsconfig.json's extends/references through the TypeScript API, which TypeScript 7
  // (native) no longer has; ours has neither, so point it at a file that does not exist
  tsconfigFile: 'tsconfig.stryker-absent.json',
  disableTypeChecks: '{server,src,resources}/**/*.{ts,tsx}',
};

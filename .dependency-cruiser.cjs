// Import rules, checked by `npm run lint:deps` (part of `npm test`); the map and its reasons are in
// docs/ARCHITECTURE.md ("Module map and allowed arrows"). No import is exempt: one against a rule fails.
// Run dependency-cruiser through scripts/depcruise/run.mjs (it needs a TypeScript it can parse with).

// Feature folders, lowest first: a folder imports only folders listed before it, so these arrows cannot
// form a cycle. A new folder must be placed here (the `unlisted-folder` rules fail until it is).
const SERVER_LAYERS = [
  'lib',
  'db',
  'mail',
  'jobs',
  'audit',
  'auth',
  'files',
  'crud',
  'savedFilters',
  'fleet',
  'commands',
  'performance',
  'dashboard',
  'reports',
  'hookups',
  'deployments',
  'configurations',
  'configTemplates',
  'personnel',
  'promotions',
  'gateway',
  'events',
  'configuredTypes',
  'ai',
  'resources',
  'session',
  'seed',
  'simulator',
];
const SRC_LAYERS = [
  'i18n',
  'providers',
  'permissions',
  'pages',
  'layout',
  'auth',
  'generic',
  'kit',
  'dashboard',
  'remote',
  'installation',
  'performance',
  'quarantine',
  'reports',
  'resourceTypes',
  'deployments',
  'configurations',
  'configTemplates',
  'personnel',
  'hookups',
  'promotions',
  'aiTraining',
  'resources',
  'search',
  'app',
];

const layerRules = (side, layers) => [
  ...layers.slice(0, -1).map((folder, index) => ({
    name: `${side}-layers`,
    comment: `${side}/${folder}/ may import only the folders listed before it in ${side.toUpperCase()}_LAYERS (.dependency-cruiser.cjs): an arrow upwards is how cycles start.`,
    severity: 'error',
    from: { path: `^${side}/${folder}/` },
    to: { path: `^${side}/(${layers.slice(index + 1).join('|')})/` },
  })),
  {
    name: 'unlisted-folder',
    comment: `A folder of ${side}/ missing from ${side.toUpperCase()}_LAYERS in .dependency-cruiser.cjs: add it where its imports allow.`,
    severity: 'error',
    from: { path: `^${side}/(?!(${layers.join('|')})/)[^/]+/` },
    to: {},
  },
  {
    name: 'unlisted-folder',
    comment: `A folder of ${side}/ missing from ${side.toUpperCase()}_LAYERS in .dependency-cruiser.cjs: add it where its imports allow.`,
    severity: 'error',
    from: {},
    to: { path: `^${side}/(?!(${layers.join('|')})/)[^/]+/` },
  },
];

module.exports = {
  forbidden: [
    {
      name: 'console-not-server',
      comment: 'The console (src/) talks to the server over HTTP only; shared contracts live in resources/ and i18n/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-not-console',
      comment: 'The server never imports the console (src/); shared contracts live in resources/ and i18n/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'resources/ and i18n/ are read by the console and the server alike: each imports only itself.',
      severity: 'error',
      from: { path: '^(resources|i18n)/' },
      to: { pathNot: ['^$1/', '^node_modules/re2js/'] },
    },
    ...layerRules('server', SERVER_LAYERS),
    ...layerRules('src', SRC_LAYERS),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too: they couple the folders the same way.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    skipAnalysisNotInRules: true,
  },
};

// The unit test files that read local time: they run in Hong Kong (project `unit`) and again in New
// York (project `unit-ny`, vite.config.ts); every other unit file runs once. The Hong Kong run fails
// a file that reads local time without being listed here (tests/unit/localTimeProbe.setup.ts).
export const TIME_ZONE_TESTS: readonly string[] = [
  'auth.dialogs.test.tsx',
  'auth.pages.test.tsx',
  'authProvider.test.ts',
  'authProviderEdges.test.ts',
  'dataProvider.test.ts',
  'dataProviderEdges.test.ts',
  'declarationInputs.test.ts',
  'events.display.test.tsx',
  'fileUploadInput.test.tsx',
  'fleet.test.tsx',
  'generic.fixture.test.tsx',
  'generic.helpers.test.ts',
  'genericScreens.test.tsx',
  'http.test.ts',
  'httpRules.test.ts',
  'installation.helpers.test.ts',
  'installation.timeline.test.ts',
  'layout.render.test.tsx',
  'localTime.test.ts',
  'machinePage.test.tsx',
  'machineTabs.history.test.tsx',
  'machineTabs.profile.test.tsx',
  'machineTabs.sessions.test.tsx',
  'optionListInput.test.tsx',
  'pickers.test.tsx',
  'quarantine.test.tsx',
  'remote.bulk.test.tsx',
  'remote.control.test.tsx',
  'reportRange.test.ts',
  'resourceTypes.editor.test.tsx',
  'resourceTypes.runtime.test.tsx',
  'search.test.tsx',
];

export const isTimeZoneTest = (path: string) => TIME_ZONE_TESTS.some((file) => path.replace(/\\/g, '/').endsWith(file));

// `node scripts/mutationStaticPass.mjs --folder server/commands --part 2`, after that part's run on this machine.
// A part's run filters each mutant's tests by the coverage of the dry run, and code first reached outside a test
// (the app's routes and schemas, built in a beforeAll) is tested only with the tests that also reach it inside
// one: `'/rvm/command'` → `''` survived that way while the test that sends a command fails with it
// (docs/test-quality.md, "Static survivors"). This pass runs those survivors again without a filter: each with
// every test of the part, the mutant active before the test files load. What it kills is taken out of the part's
// summary (docs/mutation/<folder>.part<n>.json), which records the pass; then the folder's section is rewritten.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { FOLDER_PARTS } from '../stryker.config.mjs';
import { partReportFile, partSummaryFile, summarise, utcMinute } from './mutationReport.mjs';

const argument = (name) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const folder = argument('--folder');
const part = Number(argument('--part'));
const parts = FOLDER_PARTS[folder];
if (!parts?.[part - 1]) throw new Error(`${folder} has no part ${part} (FOLDER_PARTS in stryker.config.mjs)`);

const summaryFile = partSummaryFile(folder, part - 1);
const reportFile = partReportFile(folder, part - 1);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const name = reportFile.slice('reports/mutation/'.length, -'.json'.length);
// Stryker's mutate ranges take line:column pairs; a range holds the mutants inside it, so it names each survivor
const ranges = Object.entries(report.files).flatMap(([file, { mutants }]) =>
  mutants
    .filter((mutant) => mutant.status === 'Survived' && mutant.static)
    .map(({ location: { start, end } }) => `${file}:${start.line}:${start.column}-${end.line}:${end.column}`),
);
if (!ranges.length) {
  console.log(`${name}: no static survivors`);
  process.exit(0);
}

const { Stryker } = await import('../node_modules/@stryker-mutator/core/dist/src/stryker.js');
const started = Date.now();
await new Stryker({
  configFile: 'stryker.config.mjs',
  mutate: ranges,
  testFiles: parts[part - 1].tests,
  // no per-test filter: every test of the part, and the mutant active before the test files load
  coverageAnalysis: 'all',
  ignoreStatic: false,
  jsonReporter: { fileName: `reports/mutation/${name}.static.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.static.html` },
  tempDirName: `.stryker-tmp-${name}-static`,
}).runMutationTest();
const minutes = Math.round((Date.now() - started) / 60_000);

const again = summarise(JSON.parse(readFileSync(`reports/mutation/${name}.static.json`, 'utf8')), {}).get(folder);
const stillAlive = new Set((again?.survivors ?? []).map((survivor) => survivor.key));
const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
const retested = summary.survivors.filter((survivor) => survivor.static && survivor.status === 'Survived');
const killed = retested.filter((survivor) => !stillAlive.has(survivor.key));
const killedKeys = new Set(killed.map((survivor) => survivor.key));
writeFileSync(
  summaryFile,
  `${JSON.stringify(
    {
      ...summary,
      survived: summary.survived - killed.length,
      killed: summary.killed + killed.length,
      staticPass: { date: utcMinute(new Date()), minutes, retested: retested.length, killed: killed.length },
      survivors: summary.survivors.filter((survivor) => !killedKeys.has(survivor.key)),
    },
    null,
    1,
  )}\n`,
);
console.log(`${name}: ${retested.length} static survivors run again with every test of the part: ${killed.length} killed (${minutes} min)`);
execFileSync(process.execPath, ['scripts/mutationReport.mjs', '--folder', folder, '--report-only'], { stdio: 'inherit' });

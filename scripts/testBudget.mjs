#!/usr/bin/env node
// The test suite's time budget (docs/test-quality.md "Time budget"): reads what the last runs'
// reporter wrote (.test-times.*.json, one per vitest run, tests/timing/budgetReporter.ts) and the budget in
// tests/budget.json, prints each project's time and the ten slowest files, and fails when the whole
// run (`--total <seconds>`, measured by .ci/run) or a project is over its budget, listing what grew
// against the baseline recorded with the budget.
import { readdirSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const totalIndex = args.indexOf('--total');
const totalSeconds = totalIndex >= 0 ? Number(args[totalIndex + 1]) : null;

// npm test runs unit, e2e and server as separate vitest runs side by side: one file each
const runs = readdirSync('.')
  .filter((name) => /^\.test-times\..+\.json$/.test(name))
  .map((name) => ({ name, ...JSON.parse(readFileSync(name, 'utf8')) }));
if (!runs.length) {
  console.error('test budget: no .test-times.*.json (the test run did not finish): nothing to compare');
  process.exit(1);
}
const times = {
  files: runs.flatMap((run) => run.files),
  tests: runs.reduce((sum, run) => ({ passed: sum.passed + run.tests.passed, failed: sum.failed + run.tests.failed, skipped: sum.skipped + run.tests.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  }),
};
const budget = JSON.parse(readFileSync('tests/budget.json', 'utf8'));

const byProject = new Map();
for (const file of times.files) byProject.set(file.project, (byProject.get(file.project) ?? 0) + file.seconds);
// whole seconds first: 1019.5 s is 17:00, not 16:60
const minutes = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

console.log("\nTest time budget (sum of each file's import, set-up and tests; tests/budget.json)");
console.log('project     time (s)   budget (s)');
const over = [];
for (const [project, seconds] of [...byProject].sort((a, b) => b[1] - a[1])) {
  const limit = budget.projectSeconds[project];
  const flag = limit !== undefined && seconds > limit ? '  OVER' : '';
  if (flag) over.push(`${project}: ${Math.round(seconds)} s, budget ${limit} s`);
  console.log(`${project.padEnd(10)} ${String(Math.round(seconds)).padStart(9)} ${String(limit ?? '-').padStart(12)}${flag}`);
}
for (const run of runs) console.log(`vitest wall time of ${run.name.slice('.test-times.'.length, -'.json'.length)}: ${minutes(run.wallSeconds)}`);
if (totalSeconds !== null) {
  console.log(`whole run (.ci/run): ${minutes(totalSeconds)} of ${budget.totalMinutes}:00 allowed (goal ${budget.goalMinutes}:00)`);
  if (totalSeconds > budget.totalMinutes * 60) over.push(`the whole run: ${minutes(totalSeconds)}, budget ${budget.totalMinutes}:00`);
}

console.log('\nten slowest files');
for (const file of [...times.files].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
  console.log(`${String(Math.round(file.seconds)).padStart(6)} s  ${file.project.padEnd(8)} ${file.file}`);
}

const counts = times.tests ?? { passed: 0, failed: 0, skipped: 0 };
const closing = `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;

if (over.length) {
  console.log(`\nOVER BUDGET:\n  ${over.join('\n  ')}`);
  const grown = times.files
    .map((file) => ({ ...file, before: budget.baseline?.[`${file.project} ${file.file}`] ?? 0 }))
    .map((file) => ({ ...file, grew: file.seconds - file.before }))
    .filter((file) => file.grew > 5)
    .sort((a, b) => b.grew - a.grew)
    .slice(0, 15);
  console.log('what grew most against the baseline (seconds now / at the baseline):');
  for (const file of grown) console.log(`  +${Math.round(file.grew)} s  ${file.project} ${file.file} (${Math.round(file.seconds)} / ${Math.round(file.before)})`);
  console.log(closing);
  process.exit(1);
}
console.log(`\n${closing}`);

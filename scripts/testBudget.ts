// The test suite's time budget (docs/test-quality.md "Time budget"): reads what the last runs'
// reporter wrote (.test-times.*.json, one per vitest run, tests/timing/budgetReporter.ts), how fast the
// host was while they ran (.host-speed.json, scripts/hostSpeed.mjs) and the budget in tests/budget.json;
// prints each project's time and the ten slowest files, and fails when the whole run (`--total <seconds>`,
// measured by .ci/run) or a project is over its budget, listing what grew against the baseline.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface FileTime {
  project: string;
  file: string;
  seconds: number;
}
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}
export interface Budget {
  goalMinutes: number;
  totalMinutes: number;
  projectSeconds: Record<string, number>;
  baseline?: Record<string, number>;
  /** The fixed work's seconds a round on the quiet machine the budgets were written on. */
  hostSpeed?: { referenceSeconds: number; measured: string };
}
export interface HostSpeedSample {
  label: string;
  seconds: number;
}

/**
 * How many times slower than the reference the host was: the fastest of the measurements (before and
 * after the tests), so a moment's hiccup excuses nothing; never below 1, so a faster host does not
 * tighten budgets written with their margin on the reference.
 */
export function hostSlowdown(referenceSeconds: number | undefined, samples: readonly HostSpeedSample[]): number {
  if (!referenceSeconds || !samples.length) return 1;
  return Math.max(1, Math.min(...samples.map((sample) => sample.seconds)) / referenceSeconds);
}

export interface ProjectVerdict {
  project: string;
  seconds: number;
  /** The seconds divided by the host's slowdown: what the reference machine would have taken. */
  atReference: number;
  limit: number | undefined;
  over: boolean;
}

export function judgeBudget(files: readonly FileTime[], budget: Budget, slowdown: number, totalSeconds: number | null) {
  const byProject = new Map<string, number>();
  for (const file of files) byProject.set(file.project, (byProject.get(file.project) ?? 0) + file.seconds);
  const projects: ProjectVerdict[] = [...byProject]
    .sort((a, b) => b[1] - a[1])
    .map(([project, seconds]) => {
      const limit = budget.projectSeconds[project];
      const atReference = seconds / slowdown;
      return { project, seconds, atReference, limit, over: limit !== undefined && atReference > limit };
    });
  const over = projects
    .filter((project) => project.over)
    .map((project) => `${project.project}: ${Math.round(project.atReference)} s at the reference speed, budget ${project.limit} s`);
  // CI's own limit is on the clock, whatever the host's speed: the whole run is judged as measured
  if (totalSeconds !== null && totalSeconds > budget.totalMinutes * 60) over.push(`the whole run: ${minutes(totalSeconds)}, budget ${budget.totalMinutes}:00`);
  const grown = files
    .map((file) => ({ ...file, before: budget.baseline?.[`${file.project} ${file.file}`] ?? 0 }))
    .map((file) => ({ ...file, grew: file.seconds / slowdown - file.before }))
    .filter((file) => file.grew > 5)
    .sort((a, b) => b.grew - a.grew)
    .slice(0, 15);
  return { projects, over, grown };
}

// whole seconds first: 1019.5 s is 17:00, not 16:60
export const minutes = (seconds: number) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

function main() {
  const args = process.argv.slice(2);
  const totalIndex = args.indexOf('--total');
  const totalSeconds = totalIndex >= 0 ? Number(args[totalIndex + 1]) : null;

  // npm test runs unit, e2e and server as separate vitest runs side by side: one file each
  const runs: { name: string; wallSeconds: number; tests: TestCounts; files: FileTime[] }[] = readdirSync('.')
    .filter((name) => /^\.test-times\..+\.json$/.test(name))
    .map((name) => ({ name, ...JSON.parse(readFileSync(name, 'utf8')) }));
  if (!runs.length) {
    console.error('test budget: no .test-times.*.json (the test run did not finish): nothing to compare');
    process.exit(1);
  }
  const files = runs.flatMap((run) => run.files);
  const counts = runs.reduce((sum, run) => ({ passed: sum.passed + run.tests.passed, failed: sum.failed + run.tests.failed, skipped: sum.skipped + run.tests.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
  const budget: Budget = JSON.parse(readFileSync('tests/budget.json', 'utf8'));
  const samples: HostSpeedSample[] = existsSync('.host-speed.json') ? JSON.parse(readFileSync('.host-speed.json', 'utf8')) : [];
  const slowdown = hostSlowdown(budget.hostSpeed?.referenceSeconds, samples);
  const { projects, over, grown } = judgeBudget(files, budget, slowdown, totalSeconds);

  console.log("\nTest time budget (sum of each file's import, set-up and tests; tests/budget.json)");
  if (budget.hostSpeed && samples.length) {
    const measured = samples.map((sample) => `${sample.label} ${sample.seconds} s`).join(', ');
    console.log(`host speed: ${measured} a round, reference ${budget.hostSpeed.referenceSeconds} s (${budget.hostSpeed.measured}): ${slowdown.toFixed(2)}× slower`);
  } else console.log('host speed: not measured (.ci/run measures it): times are judged as they are');
  console.log('project     time (s)   at reference (s)   budget (s)');
  for (const project of projects) {
    const flag = project.over ? '  OVER' : '';
    console.log(
      `${project.project.padEnd(10)} ${String(Math.round(project.seconds)).padStart(9)} ${String(Math.round(project.atReference)).padStart(18)} ${String(project.limit ?? '-').padStart(12)}${flag}`,
    );
  }
  for (const run of runs) console.log(`vitest wall time of ${run.name.slice('.test-times.'.length, -'.json'.length)}: ${minutes(run.wallSeconds)}`);
  if (totalSeconds !== null) {
    console.log(
      `whole run (.ci/run): ${minutes(totalSeconds)} of ${budget.totalMinutes}:00 allowed (goal ${budget.goalMinutes}:00); ${minutes(totalSeconds / slowdown)} at the reference speed`,
    );
  }

  console.log('\nten slowest files');
  for (const file of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    console.log(`${String(Math.round(file.seconds)).padStart(6)} s  ${file.project.padEnd(8)} ${file.file}`);
  }

  const closing = `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
  if (over.length) {
    console.log(`\nOVER BUDGET:\n  ${over.join('\n  ')}`);
    console.log('what grew most against the baseline (seconds at the reference speed now / at the baseline):');
    for (const file of grown) console.log(`  +${Math.round(file.grew)} s  ${file.project} ${file.file} (${Math.round(file.seconds / slowdown)} / ${Math.round(file.before)})`);
    console.log(closing);
    process.exit(1);
  }
  console.log(`\n${closing}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

// Writes where the suite's time went (per project, per file) to .test-times.<projects>.json, one file per
// vitest run (npm test runs three side by side), for the budget check that CI runs after the tests
// (scripts/testBudget.ts, docs/test-quality.md "Time budget").
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** `.test-times.<project>+<project>.json`: the runs of one `npm test` write beside each other. */
export const timesFileOf = (projects: readonly string[]) => `.test-times.${projects.join('+') || 'all'}.json`;

export interface FileTime {
  project: string;
  file: string;
  /** Import, set-up and tests of the file, in seconds. */
  seconds: number;
}

export default class BudgetReporter implements Reporter {
  private started = Date.now();
  private file = timesFileOf([]);

  onInit(vitest: Vitest) {
    this.started = Date.now();
    this.file = timesFileOf(vitest.projects.map((project) => project.name));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const files: FileTime[] = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const milliseconds = diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration;
      return { project: module.project.name, file: relative(process.cwd(), module.moduleId), seconds: Math.round(milliseconds) / 1000 };
    });
    const tests = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed') tests[state]++;
        else tests.skipped++;
      }
    }
    writeFileSync(this.file, JSON.stringify({ wallSeconds: Math.round((Date.now() - this.started) / 100) / 10, tests, files }, null, 1));
  }
}

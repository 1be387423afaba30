// Writes where the suite's time went (per project, per file) to .test-times.json, for the budget check
// that CI runs after the tests (scripts/testBudget.mjs, docs/test-quality.md "Time budget").
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export const TIMES_FILE = '.test-times.json';

export interface FileTime {
  project: string;
  file: string;
  /** Import, set-up and tests of the file, in seconds. */
  seconds: number;
}

export default class BudgetReporter implements Reporter {
  private started = Date.now();

  onInit() {
    this.started = Date.now();
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
    writeFileSync(TIMES_FILE, JSON.stringify({ wallSeconds: Math.round((Date.now() - this.started) / 100) / 10, tests, files }, null, 1));
  }
}

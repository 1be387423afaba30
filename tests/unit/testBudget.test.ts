// The suite's time budget is judged at the reference machine's speed (docs/test-quality.md, "Time budget"):
// a busy host's slowdown, measured before and after the tests, excuses the projects' times but never CI's
// own clock limit on the whole run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Budget, hostSlowdown, judgeBudget } from '../../scripts/testBudget';

const budget: Budget = {
  goalMinutes: 25,
  totalMinutes: 60,
  projectSeconds: { e2e: 2600, server: 1800 },
  baseline: { 'e2e tests/e2e/a11y.test.ts': 183 },
  hostSpeed: { referenceSeconds: 0.5, measured: 'test' },
};
const files = [
  { project: 'e2e', file: 'tests/e2e/a11y.test.ts', seconds: 394 },
  { project: 'server', file: 'tests/server/a.test.ts', seconds: 1000 },
  { project: 'server', file: 'tests/server/b.test.ts', seconds: 848 },
];

describe('the host slowdown', () => {
  it('is the fastest measurement against the reference, never below 1, and 1 when nothing was measured', () => {
    expect(
      hostSlowdown(0.5, [
        { label: 'before', seconds: 1.0 },
        { label: 'after', seconds: 0.9 },
      ]),
    ).toBeCloseTo(1.8);
    expect(hostSlowdown(0.5, [{ label: 'before', seconds: 0.4 }])).toBe(1);
    expect(hostSlowdown(0.5, [])).toBe(1);
    expect(hostSlowdown(undefined, [{ label: 'before', seconds: 1.0 }])).toBe(1);
  });
});

describe('the budget verdict', () => {
  it('fails a project over its budget on a quiet host, naming it and what grew against the baseline', () => {
    const verdict = judgeBudget(files, budget, 1, 2000);
    expect(verdict.projects.map(({ project, seconds, over }) => [project, seconds, over])).toEqual([
      ['server', 1848, true],
      ['e2e', 394, false],
    ]);
    expect(verdict.over).toEqual(['server: 1848 s at the reference speed, budget 1800 s']);
    expect(verdict.grown[0]).toMatchObject({ file: 'tests/server/a.test.ts', grew: 1000 });
  });

  it('passes the same times on a host measured 1.8 times slower, judging them at the reference speed', () => {
    const verdict = judgeBudget(files, budget, 1.8, 2000);
    expect(verdict.over).toEqual([]);
    expect(verdict.projects[0].atReference).toBeCloseTo(1848 / 1.8);
    expect(verdict.grown.find((file) => file.file === 'tests/e2e/a11y.test.ts')?.grew).toBeCloseTo(394 / 1.8 - 183);
  });

  it('judges the whole run by the clock whatever the host speed, at the budget edge', () => {
    expect(judgeBudget(files, budget, 3, 3600).over).toEqual([]);
    expect(judgeBudget(files, budget, 3, 3601).over).toEqual(['the whole run: 60:01, budget 60:00']);
    expect(judgeBudget(files, { ...budget, projectSeconds: { server: 1848 } }, 1, null).over).toEqual([]);
  });
});

describe('the host speed measurement', () => {
  it('appends one sample per call to .host-speed.json, each round timed on both cores', () => {
    const folder = mkdtempSync(join(tmpdir(), 'rvm-host-speed-'));
    try {
      for (const label of ['before', 'after']) {
        const run = spawnSync(process.execPath, [join(process.cwd(), 'scripts', 'hostSpeed.mjs'), '--label', label, '--rounds', '1'], { cwd: folder, encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
      }
      const samples = JSON.parse(readFileSync(join(folder, '.host-speed.json'), 'utf8'));
      expect(samples.map((sample: { label: string }) => sample.label)).toEqual(['before', 'after']);
      for (const sample of samples) {
        expect(sample.rounds).toHaveLength(1);
        expect(sample.seconds).toBeGreaterThan(0);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    // two processes each working about a second on a quiet machine: a busy one may take many times that
  }, 120_000);
});

// The job runner's `soon` (server/jobs/periodic.ts): work another event made due runs within a second,
// the requests of that second are one run, a run under way is never overlapped, and nothing runs without
// timers (tests drive time there) or after stop.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJobRunner, SOON_MS } from '../../server/jobs/periodic';

const log = { error: vi.fn() } as unknown as FastifyBaseLogger;
const HOUR = 3_600_000;

describe('job runner: soon', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the job once within SOON_MS for every request made before it starts', async () => {
    const jobs = createJobRunner(log);
    const run = vi.fn(async () => undefined);
    jobs.add({ name: 'check', everyMs: HOUR, run });
    jobs.soon('check');
    jobs.soon('check');
    await vi.advanceTimersByTimeAsync(SOON_MS - 1);
    expect(run).not.toHaveBeenCalled();
    jobs.soon('check');
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    // a request after that run began is a run of its own
    jobs.soon('check');
    await vi.advanceTimersByTimeAsync(SOON_MS);
    expect(run).toHaveBeenCalledTimes(2);
    await jobs.stop();
  });

  it('waits for the run under way instead of overlapping it', async () => {
    const jobs = createJobRunner(log);
    let release: () => void = () => undefined;
    let active = 0;
    let most = 0;
    const run = vi.fn(async () => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((resolve) => (release = resolve));
      active--;
    });
    jobs.add({ name: 'check', everyMs: HOUR, run });
    const first = jobs.runNow('check');
    jobs.soon('check');
    await vi.advanceTimersByTimeAsync(SOON_MS);
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await first;
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(most).toBe(1);
    await jobs.stop();
  });

  it('does nothing without timers, for a job not added, or after stop', async () => {
    const manual = createJobRunner(log, { autoStart: false });
    const run = vi.fn(async () => undefined);
    manual.add({ name: 'check', everyMs: HOUR, run });
    manual.soon('check');
    manual.soon('unknown');
    await vi.advanceTimersByTimeAsync(SOON_MS * 2);
    expect(run).not.toHaveBeenCalled();

    const timed = createJobRunner(log);
    timed.add({ name: 'check', everyMs: HOUR, run });
    timed.soon('check');
    await timed.stop();
    await vi.advanceTimersByTimeAsync(SOON_MS * 2);
    timed.soon('check');
    await vi.advanceTimersByTimeAsync(SOON_MS * 2);
    expect(run).not.toHaveBeenCalled();
  });
});

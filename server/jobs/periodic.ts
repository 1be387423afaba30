// Periodic background work of a server instance (sweeps, notifications, deliveries). A job must be
// safe when several instances run it at once (conditional updates, unique keys, `for update skip
// locked`): nothing here coordinates instances, the database does. A failing run is logged and the
// next one comes at the next tick; runs of one job never overlap within an instance. Work that
// another event makes due (a machine finishing a delivery) asks for a run `soon` instead of waiting
// for the tick: the requests of one second become one run.
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: (now: Date) => Promise<unknown>;
  /** Also run once right after it is added (with timers on): catch-up work after a restart. */
  runAtStart?: boolean;
}

export interface JobRunner {
  add(job: PeriodicJob): void;
  /** Runs a job now (tests advance time by calling this with a chosen `now`). */
  runNow(name: string, now?: Date): Promise<void>;
  /**
   * Runs a job within `SOON_MS` (after the run under way, if any). Requests before that run starts are one
   * run. Nothing without timers (tests drive time with runNow) or for a job not added on this instance.
   */
  soon(name: string): void;
  stop(): Promise<void>;
}

/** How long a `soon` request waits for others to join it. */
export const SOON_MS = 1_000;

interface Entry {
  job: PeriodicJob;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  soon?: NodeJS.Timeout;
}

export const createJobRunner = (log: FastifyBaseLogger, { autoStart = true }: { autoStart?: boolean } = {}): JobRunner => {
  const jobs = new Map<string, Entry>();
  let stopped = false;

  const execute = async (name: string, now?: Date) => {
    const entry = jobs.get(name);
    if (!entry) throw new Error(`no job named ${name}`);
    if (entry.running) await entry.running;
    entry.running = entry.job
      .run(now ?? new Date())
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error, job: name }, 'periodic job failed'))
      .finally(() => (entry.running = undefined));
    await entry.running;
  };

  return {
    add(job) {
      if (jobs.has(job.name)) throw new Error(`job ${job.name} added twice`);
      const entry: Entry = { job };
      jobs.set(job.name, entry);
      if (autoStart && !stopped) {
        entry.timer = setInterval(() => {
          if (!entry.running && !stopped) void execute(job.name);
        }, job.everyMs);
        entry.timer.unref();
        if (job.runAtStart) setImmediate(() => void (!stopped && execute(job.name)));
      }
    },
    runNow: execute,
    soon(name) {
      const entry = jobs.get(name);
      if (!entry || !autoStart || stopped || entry.soon) return;
      entry.soon = setTimeout(() => {
        entry.soon = undefined;
        if (!stopped) void execute(name);
      }, SOON_MS);
      entry.soon.unref();
    },
    async stop() {
      stopped = true;
      for (const entry of jobs.values()) {
        clearInterval(entry.timer);
        clearTimeout(entry.soon);
      }
      await Promise.all([...jobs.values()].flatMap((entry) => (entry.running ? [entry.running] : [])));
    },
  };
};

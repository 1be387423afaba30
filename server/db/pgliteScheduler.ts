// The order in which the PGlite worker runs the statements waiting for its one connection. PGlite on
// its own runs them first come, first served: a "who am I" (one short statement) that arrives behind
// ten machine-list pages waits for all ten (measured: p99 60 ms while the list loads, 10 connections).
// Here the worker keeps the queue itself and runs next the statement it expects to be shortest: each
// SQL text's running time is learned as it runs (a moving average), so no caller has to say which
// calls are light. A statement that has waited `maxWaitMs` runs first whatever its cost, so a busy
// stream of short statements cannot starve a long one.
// The worker's thread runs a statement from start to end without seeing new messages, so before each
// choice the queue yields once to the event loop: the requests that arrived meanwhile join it first
// (else it would only ever hold one, and the order would still be the order of arrival).
// Statements inside a transaction do not come through here (the transaction already holds the
// connection; queueing them behind statements that wait for it would never end).

interface Waiting {
  key: string;
  work(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  since: number;
}

export interface ShortestFirstOptions {
  /** A statement waiting this long runs next, before shorter ones (no starvation). */
  maxWaitMs?: number;
  /** How many SQL texts keep a learned cost (the oldest are forgotten beyond it; memory stays bounded). */
  maxKeys?: number;
  now?: () => number;
  /**
   * False while something else holds the connection (an open transaction): a statement that waited for it
   * would be learned as costing that wait. Asked when the statement starts and when it ends.
   */
  measurable?: () => boolean;
}

/**
 * The text a cost is learned under: parameters are unnumbered and a list of them counts as one, so
 * `id in ($1, $2) and a = $3` and `id in ($1, $2, $3) and a = $4` share their cost (else a text whose lists
 * vary would be new, so "free", every time).
 */
export const costKey = (sql: string) => sql.replace(/\$\d+(?:\s*,\s*\$\d+)*/g, '$n');

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Weight of the latest run in a text's learned cost. */
const LATEST_WEIGHT = 0.2;

export const shortestFirst = ({ maxWaitMs = 100, maxKeys = 2000, now = () => performance.now(), measurable = () => true }: ShortestFirstOptions = {}) => {
  const queue: Waiting[] = [];
  /** SQL text → learned running time (ms); a text never run counts as 0 (runs soon, then is known). */
  const cost = new Map<string, number>();
  let running = false;

  const learn = (key: string, ms: number) => {
    const known = cost.get(key);
    cost.delete(key); // re-inserted last: Map order is then "least recently run first"
    cost.set(key, known === undefined ? ms : known + (ms - known) * LATEST_WEIGHT);
    if (cost.size > maxKeys) cost.delete(cost.keys().next().value as string);
  };

  /** The oldest statement if it has waited too long, else the cheapest (the earliest among equals). */
  const nextIndex = () => {
    if (now() - queue[0].since >= maxWaitMs) return 0;
    let best = 0;
    for (let index = 1; index < queue.length; index += 1) {
      if ((cost.get(queue[index].key) ?? 0) < (cost.get(queue[best].key) ?? 0)) best = index;
    }
    return best;
  };

  const pump = async () => {
    running = true;
    for (;;) {
      await yieldToEventLoop();
      if (queue.length === 0) break;
      const [next] = queue.splice(nextIndex(), 1);
      const started = now();
      const alone = measurable();
      try {
        next.resolve(await next.work());
      } catch (error) {
        next.reject(error);
      }
      if (alone && measurable()) learn(next.key, now() - started);
    }
    running = false;
  };

  return {
    /** `work` (one statement on the connection) when its turn comes; `sql` is its text. */
    run<T>(sql: string, work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ key: costKey(sql), work, resolve, reject, since: now() });
        if (!running) void pump();
      });
    },
    /** The learned cost of a text in ms (undefined: never run). */
    costOf: (sql: string) => cost.get(costKey(sql)),
    get waiting() {
      return queue.length;
    },
  };
};

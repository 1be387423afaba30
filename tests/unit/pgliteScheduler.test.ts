// The PGlite worker's queue (server/db/pgliteScheduler.ts): shortest expected statement first, costs
// learned per SQL text, nothing left waiting longer than maxWaitMs behind shorter ones. A fake clock
// stands for the statements' running times; the order of completion is what is asserted.
import { describe, expect, it } from 'vitest';
import { costKey, shortestFirst } from '../../server/db/pgliteScheduler';

const setup = (options: { maxWaitMs?: number; maxKeys?: number; measurable?: () => boolean } = {}) => {
  let clock = 0;
  const scheduler = shortestFirst({ ...options, now: () => clock });
  const done: string[] = [];
  /** A statement of `key` that "runs" `ms` on the fake clock. */
  const statement = (key: string, ms: number, label = key) =>
    scheduler.run(key, async () => {
      clock += ms;
      done.push(label);
      return label;
    });
  return { scheduler, done, statement, tick: (ms: number) => (clock += ms) };
};

describe('the PGlite statement queue', () => {
  it('runs statements of unknown or equal cost in the order they came', async () => {
    const { done, statement } = setup();
    await Promise.all([statement('a', 1), statement('b', 1), statement('c', 1)]);
    expect(done).toEqual(['a', 'b', 'c']);
  });

  it("answers each caller with its own statement's result", async () => {
    const { statement } = setup();
    expect(await Promise.all([statement('a', 1, 'one'), statement('b', 1, 'two')])).toEqual(['one', 'two']);
  });

  it('runs a statement known to be short before longer ones that came earlier', async () => {
    const { done, statement } = setup();
    await statement('page', 20);
    await statement('who am I', 1);
    done.length = 0;
    await Promise.all([statement('page', 20, 'page 1'), statement('page', 20, 'page 2'), statement('page', 20, 'page 3'), statement('who am I', 1)]);
    expect(done).toEqual(['who am I', 'page 1', 'page 2', 'page 3']);
  });

  it('runs a statement that has waited maxWaitMs before shorter ones', async () => {
    const { done, statement } = setup({ maxWaitMs: 50 });
    await statement('page', 30);
    await statement('light', 1);
    done.length = 0;
    // the page waits while the first light statement runs 60 ms: then it is due, ahead of the other light ones
    await Promise.all([statement('light', 60, 'light 1'), statement('page', 30), statement('light', 1, 'light 2'), statement('light', 1, 'light 3')]);
    expect(done).toEqual(['light 1', 'page', 'light 2', 'light 3']);
  });

  it('waits exactly maxWaitMs, not less: at 49 ms of 50 the shorter one still goes first', async () => {
    const run = async (firstMs: number) => {
      const { done, statement } = setup({ maxWaitMs: 50 });
      await statement('page', 30);
      await statement('light', 1);
      done.length = 0;
      await Promise.all([statement('other', firstMs, 'first'), statement('page', 30), statement('light', 1)]);
      return done;
    };
    expect(await run(49)).toEqual(['first', 'light', 'page']);
    expect(await run(50)).toEqual(['first', 'page', 'light']);
  });

  it("learns a text's cost as a moving average, the latest run weighing a fifth", async () => {
    const { scheduler, statement } = setup();
    expect(scheduler.costOf('q')).toBeUndefined();
    await statement('q', 10);
    expect(scheduler.costOf('q')).toBe(10);
    await statement('q', 20);
    expect(scheduler.costOf('q')).toBeCloseTo(12);
  });

  it('a failing statement answers its caller with the error, and the queue goes on', async () => {
    const { scheduler, done, statement } = setup();
    const failing = scheduler.run('bad', async () => {
      throw new Error('syntax error');
    });
    const after = statement('good', 1);
    await expect(failing).rejects.toThrow('syntax error');
    expect(await after).toBe('good');
    expect(done).toEqual(['good']);
    expect(scheduler.waiting).toBe(0);
  });

  it('keeps the costs of at most maxKeys texts, forgetting the one run longest ago', async () => {
    const { scheduler, statement } = setup({ maxKeys: 2 });
    await statement('a', 1);
    await statement('b', 2);
    await statement('a', 1);
    await statement('c', 3);
    expect([scheduler.costOf('a'), scheduler.costOf('b'), scheduler.costOf('c')]).toEqual([1, undefined, 3]);
  });

  it('learns nothing from a statement that started or ended while something else held the connection', async () => {
    let transactionOpen = false;
    const { scheduler, statement, tick } = setup({ measurable: () => !transactionOpen });
    // the transaction ends while the statement waits for the connection
    transactionOpen = true;
    await scheduler.run('waited at the start', async () => {
      tick(40);
      transactionOpen = false;
    });
    // a transaction begins while the statement runs
    await scheduler.run('waited at the end', async () => {
      tick(40);
      transactionOpen = true;
    });
    transactionOpen = false;
    await statement('alone', 3);
    expect([scheduler.costOf('waited at the start'), scheduler.costOf('waited at the end'), scheduler.costOf('alone')]).toEqual([undefined, undefined, 3]);
  });

  it('learns one cost for texts that differ only in the length of a parameter list', async () => {
    expect(costKey('select * from rvm where id in ($1, $2) and a = $3')).toBe(costKey('select * from rvm where id in ($1,$2,$3,$4) and a = $5'));
    expect(costKey('select $1 where $2 = 1')).toBe('select $n where $n = 1');
    const { scheduler, statement } = setup();
    await statement('select * from rvm where id in ($1, $2)', 25);
    expect(scheduler.costOf('select * from rvm where id in ($1, $2, $3, $4, $5)')).toBe(25);
  });
});

// The database driver under concurrency: PGlite runs in a worker thread (server/db/pgliteWorker.ts),
// so a transaction must still own the single connection (a concurrent request never slips a statement
// into it), PostgreSQL's error fields must survive the thread hop, and the server's event loop must
// stay free while a heavy query runs. Ordering and outcomes are asserted, never durations.
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { pgErrorCode } from '../../server/lib/errors';
import { PgliteWorkerClient } from '../../server/db/pgliteWorker';
import { describeBackends } from './helpers';

describeBackends('database driver under concurrency', (server, backend) => {
  const tags = async () => rowsOf<{ tag: string }>(await server.db.execute(sql`select tag from driver_probe order by tag`)).map((row) => row.tag);

  beforeAll(async () => {
    await server.db.execute(sql`create table driver_probe (id serial primary key, tag text not null unique)`);
  });

  it("a rolled-back transaction takes none of a concurrent request's statements with it", async () => {
    await server.db.execute(sql`delete from driver_probe`);
    let outside: Promise<unknown> | undefined;
    const failed = server.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into driver_probe (tag) values ('inside')`);
        // Another request writes while the transaction is open ...
        outside = server.db.execute(sql`insert into driver_probe (tag) values ('outside')`);
        for (let i = 0; i < 5; i++) await tx.execute(sql`select count(*) from driver_probe`);
        // ... and the transaction sees only its own row.
        expect(rowsOf<{ tag: string }>(await tx.execute(sql`select tag from driver_probe order by tag`)).map((row) => row.tag)).toEqual(['inside']);
        throw new Error('roll back');
      })
      .then(
        () => 'committed',
        (error: Error) => error.message,
      );
    expect(await failed).toBe('roll back');
    await outside;
    expect(await tags()).toEqual(['outside']);
  });

  it('a SELECT repeated with parameters answers the same once it runs as a named statement, and after the table changes', async () => {
    await server.db.execute(sql`delete from driver_probe`);
    await server.db.execute(sql`insert into driver_probe (tag) values ('alpha'), ('beta'), ('gamma')`);
    const since = new Date('2026-01-02T03:04:05.678Z');
    const probe = async (tag: string, ids: number[]) =>
      rowsOf<Record<string, unknown>>(
        await server.db.execute(sql`select p.tag, ${since}::timestamptz as since, ${null}::int as nothing, ${JSON.stringify({ a: [1, 'x'] })}::jsonb as doc,
          ${tag}::text || '!' as shout, p.id = any(${sql.param(ids)}::int[]) as listed
          from driver_probe p where p.tag >= ${tag} order by p.tag`),
      ).map((row) => ({ ...row, since: new Date(row.since as string).toISOString(), doc: typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc }));
    const [alpha] = rowsOf<{ id: number }>(await server.db.execute(sql`select id from driver_probe where tag = 'alpha'`));
    // the first calls are sent unnamed, later ones named (server/db/namedStatements.ts, pgliteNamed.ts)
    const answers = [];
    for (let call = 0; call < 6; call++) answers.push(await probe(call % 2 ? 'beta' : 'alpha', [alpha.id]));
    const expected = (from: string) =>
      ['alpha', 'beta', 'gamma']
        .filter((tag) => tag >= from)
        .map((tag) => ({ tag, since: since.toISOString(), nothing: null, doc: { a: [1, 'x'] }, shout: `${from}!`, listed: tag === 'alpha' }));
    answers.forEach((answer, call) => expect(answer).toEqual(expected(call % 2 ? 'beta' : 'alpha')));
    // PGlite has one connection: the statement really is kept there under a name
    if (backend === 'pglite') {
      const kept = rowsOf<{ name: string }>(await server.db.execute(sql`select name from pg_prepared_statements where statement like '%from driver_probe p where p.tag >=%'`));
      expect(kept.map((row) => row.name)).toEqual([expect.stringMatching(/^rvm_/)]);
    }
    // a column change under a named statement: the same text still answers (re-planned or sent unnamed)
    await server.db.execute(sql`alter table driver_probe alter column tag type varchar(40)`);
    for (let call = 0; call < 3; call++) expect(await probe('gamma', [])).toEqual(expected('gamma').map((row) => ({ ...row, listed: false })));
    await server.db.execute(sql`alter table driver_probe alter column tag type text`);
  });

  it('constraint violations keep their PostgreSQL code (what maps them to catalogue codes)', async () => {
    await server.db.execute(sql`delete from driver_probe`);
    await server.db.execute(sql`insert into driver_probe (tag) values ('once')`);
    const error = await server.db.execute(sql`insert into driver_probe (tag) values ('once')`).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(pgErrorCode(error)).toBe('23505');
    const inTransaction = await server.db
      .transaction(async (tx) => tx.execute(sql`insert into driver_probe (tag) values ('once')`))
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(pgErrorCode(inTransaction)).toBe('23505');
    expect(await tags()).toEqual(['once']);
  });

  it.runIf(backend === 'pglite')('PGlite: a concurrent statement waits until the open transaction has ended', async () => {
    await server.db.execute(sql`delete from driver_probe`);
    const events: string[] = [];
    let outside: Promise<unknown> | undefined;
    await server.db.transaction(async (tx) => {
      await tx.execute(sql`insert into driver_probe (tag) values ('first')`);
      outside = server.db.execute(sql`insert into driver_probe (tag) values ('second')`).then(() => events.push('outside done'));
      // Several round trips to the worker: room for the outside statement, were it not held back.
      for (let i = 0; i < 10; i++) await tx.execute(sql`select count(*) from driver_probe`);
      events.push('transaction body done');
    });
    await outside;
    expect(events).toEqual(['transaction body done', 'outside done']);
    expect(await tags()).toEqual(['first', 'second']);
  });

  it.runIf(backend === 'pglite')('PGlite: a statement known to be short runs before long ones that were sent earlier', async () => {
    // A worker of its own whose starvation limit cannot be reached: on a busy machine one long
    // statement outlasts the default 100 ms, and then the queue rightly runs the oldest first.
    const client = new PgliteWorkerClient(undefined, undefined, { maxWaitMs: 10 * 60_000 });
    try {
      await client.waitReady;
      const long = 'select count(*) from generate_series(1, 1500000)';
      const short = 'select 1 as one';
      // each text runs once first: the worker learns what it costs (server/db/pgliteScheduler.ts)
      await client.query(long);
      await client.query(short);
      const order: string[] = [];
      await Promise.all([...[1, 2, 3].map((n) => client.query(long).then(() => order.push(`long ${n}`))), client.query(short).then(() => order.push('short'))]);
      // the short one goes first, or second if the first long one was already running when it arrived
      // (first come, first served would run it last)
      expect(order.filter((done) => done !== 'short')).toEqual(['long 1', 'long 2', 'long 3']);
      expect(order.indexOf('short')).toBeLessThanOrEqual(1);
    } finally {
      await client.close();
    }
  });

  it.runIf(backend === 'pglite')('PGlite: the server answers a light call while a heavy query runs', async () => {
    // the document is built at its first request: built beforehand, the light call is light on a busy machine too
    expect((await server.app.inject({ method: 'GET', url: '/test-api/docs/json' })).statusCode).toBe(200);
    const order: string[] = [];
    const heavy = server.db.execute(sql`select count(*) from generate_series(1, 3000000)`).then(() => order.push('heavy query'));
    // A call that needs no database: it can only finish first if the event loop is free.
    const light = server.app.inject({ method: 'GET', url: '/test-api/docs/json' }).then((answer) => {
      expect(answer.statusCode).toBe(200);
      order.push('light call');
    });
    await Promise.all([heavy, light]);
    expect(order).toEqual(['light call', 'heavy query']);
  });
});

// The machine list's page is one statement whose plan the database keeps: the page size, the health flags'
// windows and alarm codes are written into its text (server/db/inlineSql.ts rowLimit for the console's page
// sizes, constantText for the flags' windows and alarm codes), so PostgreSQL and PGlite settle on a generic plan instead of planning each
// call again, and the unfiltered total rides on the page's own rows (scopeTotal) instead of a second statement.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { Caller, loadCaller } from '../../server/auth/principal';
import { rowsOf, type Db } from '../../server/db/client';
import { readPage } from '../../server/crud/routes';
import { seedSmallFleet } from './fleetHarness';
import { describeFleet } from './fleetSuite';

const MACHINES = 300;
const PAGE_TEXT = '%from "rvm" where "rvm"."id" in (select "id" from "rvm" where%';

describeFleet(
  'machine list page plans',
  (context) => {
    it('the first page of the list runs on a kept (generic) plan after a few calls, with the page size in its text', async () => {
      const { server, token } = context;
      const { db, config, models } = server.app.services;
      const model = models.get('machine');
      if (!model) throw new Error('no machine model');
      const { principal, permissions } = await loadCaller(db, config, token);
      const caller = new Caller(db, config, principal, 'en', permissions);
      // pg_prepared_statements lists one connection's statements: PostgreSQL's pool holds one for a transaction;
      // PGlite has a single connection, and names statements outside transactions only
      const callsThenPlans = (pageSize: number, calls: number, like: string) => {
        const run = async (handle: Db) => {
          for (let call = 0; call < calls; call++) {
            const page = await readPage(handle, model, caller, { pageNum: 1, pageSize });
            expect(page.list).toHaveLength(pageSize);
          }
          return rowsOf<{ statement: string; generic_plans: number; custom_plans: number }>(
            await handle.execute(sql`select statement, generic_plans, custom_plans from pg_prepared_statements where statement like ${like}`),
          );
        };
        return server.backend === 'postgres' ? db.transaction(run) : run(db);
      };
      const plans = await callsThenPlans(20, 12, PAGE_TEXT);
      // a size the console does not offer stays a parameter: each size written in is one more statement name, and names are few
      const odd = await callsThenPlans(7, 4, '%limit 7%');
      expect(odd).toEqual([]);
      expect(plans).toHaveLength(1);
      expect(plans[0].statement).toMatch(/ limit 20\)/);
      expect(plans[0].statement).not.toMatch(/now\(\) - \$\d/);
      // the database plans the first five calls of a named statement for their values, then keeps the generic plan
      // when it costs no more: with `limit $n` and `now() - $n` it never did (every call planned again)
      expect(Number(plans[0].generic_plans)).toBeGreaterThanOrEqual(3);
    });

    // A plan kept without the values cannot use an index for `like $1` (a prefix) nor know how many rows a pattern
    // matches: search and filtered pages must be planned with their values on every call (measured: a kept plan of
    // search's session lookup took 6–7 s over 4.4 million sessions, against 8 ms).
    it('search and pattern-filtered pages stay unnamed, planned with their values on every call (PGlite: one connection lists them all)', async ({ skip }) => {
      const { server, token } = context;
      if (server.backend !== 'pglite') skip('PostgreSQL spreads the statements over pooled connections, each listing only its own');
      for (let call = 0; call < 10; call++) {
        expect((await server.call('GET', '/search?q=S1202', { token })).body.resCode).toBe('00000');
        expect((await server.call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 20, addressLike: 'road' } })).body.resCode).toBe('00000');
        // fewer than 3 characters: a substring test, strpos(lower(x), lower($n)) (server/crud/query.ts)
        expect((await server.call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 20, addressLike: 'ro' } })).body.resCode).toBe('00000');
      }
      const statements = rowsOf<{ statement: string }>(await server.db.execute(sql`select statement from pg_prepared_statements`)).map((row) => row.statement);
      // named statements are there (the unfiltered page's, from the test above), pattern matches are not
      expect(statements.some((text) => text.includes('from "rvm" where "rvm"."id" in'))).toBe(true);
      expect(statements.filter((text) => /like \$\d/.test(text))).toEqual([]);
      expect(statements.filter((text) => text.includes('strpos('))).toEqual([]);
    });

    it('the unfiltered total is the kept count, on a page past the end too', async () => {
      const { server, token, accountId } = context;
      const [{ machines }] = rowsOf<{ machines: number }>(await server.db.execute(sql`select count(*)::int as machines from rvm where license_account_id = ${accountId}`));
      expect(machines).toBeGreaterThanOrEqual(MACHINES);
      for (const pageNum of [1, 2, 1000]) {
        const answer = await server.call('POST', '/rvm/page', { token, body: { pageNum, pageSize: 50 } });
        expect(answer.body.resCode).toBe('00000');
        expect(answer.body.resData.total).toBe(machines);
        expect(answer.body.resData.list).toHaveLength(pageNum === 1000 ? 0 : 50);
      }
      // the kept count, not a count of the rows: a count row out of step shows in the answer
      await server.db.execute(sql`update account_machine_counts set machines = machines + 7 where license_account_id = ${accountId}`);
      try {
        for (const pageNum of [1, 1000]) {
          const answer = await server.call('POST', '/rvm/page', { token, body: { pageNum, pageSize: 50 } });
          expect(answer.body.resData.total).toBe(machines + 7);
        }
        // a filtered page counts its rows
        const [{ matching }] = rowsOf<{ matching: number }>(
          await server.db.execute(sql`select count(*)::int as matching from rvm where license_account_id = ${accountId} and term_no like ${'%1%'}`),
        );
        const filtered = await server.call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 50, termNoLike: '1' } });
        expect(filtered.body.resData.total).toBe(matching);
      } finally {
        await server.db.execute(sql`update account_machine_counts set machines = machines - 7 where license_account_id = ${accountId}`);
      }
    });
  },
  async ({ server, accountId }) => {
    await seedSmallFleet(server, accountId, { machines: MACHINES, days: 1 });
  },
);

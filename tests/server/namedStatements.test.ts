// server/db/namedStatements.ts: on PostgreSQL a SELECT repeated with parameters becomes a named statement
// (parsed once per connection, its plan kept), with the same answers; anything else is sent as before.
import { sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../server/db/client';
import { describeBackends } from './helpers';

const preparedOf = async (tx: Db) =>
  rowsOf<{ name: string; statement: string }>(await tx.execute(sql`select name, statement from pg_prepared_statements where name like ${'rvm\\_%'}`));

describeBackends('named statements', (server, backend) => {
  const original = process.env.PG_NAMED_STATEMENTS;
  afterEach(() => {
    if (original === undefined) delete process.env.PG_NAMED_STATEMENTS;
    else process.env.PG_NAMED_STATEMENTS = original;
  });

  it.skipIf(backend !== 'postgres')('a SELECT sent three times with parameters is named on its connection, with the same rows', async () => {
    // One transaction: one pooled connection, whose prepared statements pg_prepared_statements lists.
    await server.app.services.db.transaction(async (tx) => {
      const marker = `named-${Math.random().toString(36).slice(2)}`;
      const read = async () => rowsOf<{ name: string; marker: string }>(await tx.execute(sql`select name, ${marker}::text as marker from sys_user where name = ${'admin'}`));
      const answers = [await read(), await read(), await read(), await read()];
      for (const answer of answers) expect(answer).toEqual([{ name: 'admin', marker }]);
      const named = (await preparedOf(tx)).filter((row) => row.statement.includes('as marker from sys_user'));
      expect(named).toHaveLength(1);
    });
  });

  it.skipIf(backend !== 'postgres')('statements without parameters, writes and the opt-out stay unnamed', async () => {
    await server.app.services.db.transaction(async (tx) => {
      for (let i = 0; i < 4; i++) await tx.execute(sql`select count(*) as unparameterised_marker from sys_user`);
      for (let i = 0; i < 4; i++) await tx.execute(sql`update sys_user set realname = realname where id = ${-1}`);
      process.env.PG_NAMED_STATEMENTS = 'off';
      for (let i = 0; i < 4; i++) await tx.execute(sql`select ${1}::int as opted_out_marker`);
      const statements = (await preparedOf(tx)).map((row) => row.statement);
      expect(statements.filter((text) => /unparameterised_marker|update sys_user|opted_out_marker/.test(text))).toEqual([]);
    });
  });

  it.skipIf(backend !== 'postgres')('pooled connections run without JIT (set at connection start-up)', async () => {
    const [{ jit }] = rowsOf<{ jit: string }>(await server.app.services.db.execute(sql`show jit`));
    expect(jit).toBe('off');
  });

  it('the page of a list answers the same however often it is asked', async () => {
    const token = await server.login();
    const page = () => server.call('POST', '/user/page', { token, body: { pageNum: 1, pageSize: 5 } });
    const first = await page();
    expect(first.body.resCode).toBe('00000');
    for (let i = 0; i < 4; i++) expect((await page()).body).toEqual(first.body);
  });
});

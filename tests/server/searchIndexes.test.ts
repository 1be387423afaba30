// Search and the generic "contains" filters on trigram indexes: the same machines as a plain scan
// would find (checked against a reference computed here from every row), for short and long terms,
// any case, Chinese addresses, and `%` / `_` taken literally; and every contains filter a declaration
// offers has its trigram index, which the generated condition can use, and a lower-case copy for short texts.
import { eq, getTableName, sql } from 'drizzle-orm';
import { integer, PgDialect, pgTable, varchar } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { buildModel } from '../../server/crud/model';
import { filterConditions } from '../../server/crud/query';
import { defineResource } from '../../resources/types';
import { rowsOf } from '../../server/db/client';
import { rvm } from '../../server/db/schema/fleet';
import { bigramIndexName, createFoldedColumns, foldedColumnName } from '../../server/db/foldedColumns';
import { containsColumns, trigramIndexesOf } from '../../server/db/trigramIndexes';
import { accountNamed, seedSmallFleet } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

/** Addresses the seed never writes: Chinese, mixed case, and the LIKE wildcards as plain text. */
const ADDRESSES = [
  '香港九龍旺角彌敦道 600 號',
  '香港島中環皇后大道中 99 號',
  '九龍尖沙咀彌敦道 50 號 NATHAN ROAD',
  '50% Off Plaza, 1 Percent Street',
  '500 Off Plaza, 2 Percent Street',
  'Unit_7 Tower, Underscore Lane',
  'Unit 7 Tower, Underscore Lane',
  'UnitX7 Tower, Underscore Lane',
  'Back\\slash House, 3 Escape Road',
];

/** A contains-searched table created after the start (as a later migration would), to watch createFoldedColumns prepare it. */
const tinTable = pgTable('tin', { id: integer('id').primaryKey(), code: varchar('code', { length: 20 }) });
const tin = defineResource({
  name: 'tin',
  apiPath: '/tin',
  route: '/service/tin',
  menuId: 614,
  table: 'tin',
  nameField: 'code',
  scope: 'global',
  fields: { id: { type: 'number', readOnly: true }, code: { type: 'text', maxLength: 20 } },
  list: { columns: ['code'], defaultSort: { field: 'code', order: 'ASC' }, filters: [{ name: 'codeLike', field: 'code', operator: 'like' }] },
  permissions: { page: 'tin:page' },
  permissionIds: { 'tin:page': 6149911 },
});

const setup = async ({ server, accountId }: FleetContext) => {
  await seedSmallFleet(server, accountId, { machines: 24, days: 1 });
  // Another account's machines share the addresses: they must never appear.
  const other = await accountNamed(server, 'Other operator');
  await seedSmallFleet(server, other, { machines: 12, days: 1, seed: 'other fleet' });
  for (const account of [accountId, other]) {
    const machines = await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.licenseAccountId, account)).orderBy(rvm.id).limit(ADDRESSES.length);
    for (const [index, machine] of machines.entries()) await server.db.update(rvm).set({ address: ADDRESSES[index] }).where(eq(rvm.id, machine.id));
  }
};

const TERMS = [
  'a',
  'Po',
  'RVM0',
  'rvm000',
  'nathan',
  'NATHAN ROAD',
  'Nathan Road',
  'road',
  'Road',
  'Library',
  '旺',
  '旺角',
  '彌敦道',
  '香港',
  '號 NATHAN',
  '%',
  '50%',
  '50% Off',
  '_',
  'Unit_7',
  'unit_7 tower',
  '\\',
  'Back\\slash',
  'no such place at all',
];

describeFleet(
  'search on trigram indexes',
  (context) => {
    const call = (method: 'GET' | 'POST', path: string, body?: unknown) => context.server.call(method, path, { token: context.token, body });
    const machinesOf = () =>
      context.server.db
        .select({ id: rvm.id, termNo: rvm.termNo, serialNumber: rvm.serialNumber, address: rvm.address })
        .from(rvm)
        .where(eq(rvm.licenseAccountId, context.accountId));
    const byTermNo = (a: { termNo: string }, b: { termNo: string }) => (a.termNo < b.termNo ? -1 : a.termNo > b.termNo ? 1 : 0);

    it('finds the same machines as a plain scan, identifiers first, for every kind of term', async () => {
      const all = await machinesOf();
      expect(all.filter((row) => row.address && /[\u4e00-\u9fff]/.test(row.address))).toHaveLength(3);
      for (const limit of [3, 100]) {
        for (const q of TERMS) {
          const needle = q.toLowerCase();
          const isIdentifier = (row: (typeof all)[number]) => row.termNo.toLowerCase().startsWith(needle) || row.serialNumber.toLowerCase().startsWith(needle);
          const identifiers = all.filter(isIdentifier).sort(byTermNo);
          const addresses = all.filter((row) => !isIdentifier(row) && (row.address ?? '').toLowerCase().includes(needle)).sort(byTermNo);
          const expected = [...identifiers, ...addresses];
          const answer = await call('GET', `/search?q=${encodeURIComponent(q)}&limit=${limit}`);
          expect(answer.body.resCode, q).toBe('00000');
          const hits = (answer.body.resData.hits as Array<{ type: string; id: number }>).filter((hit) => hit.type === 'machine');
          expect(
            hits.map((hit) => hit.id),
            `q=${q} limit=${limit}`,
          ).toEqual(expected.slice(0, limit).map((row) => row.id));
          if (expected.length > limit) expect(answer.body.resData.truncated, q).toBe(true);
        }
      }
    });

    it('takes % and _ literally and matches Chinese addresses in any case', async () => {
      const addressesFound = async (q: string) => {
        const hits = (await call('GET', `/search?q=${encodeURIComponent(q)}`)).body.resData.hits as Array<{ type: string; address: string }>;
        return hits
          .filter((hit) => hit.type === 'machine')
          .map((hit) => hit.address)
          .sort();
      };
      expect(await addressesFound('50%')).toEqual(['50% Off Plaza, 1 Percent Street']);
      expect(await addressesFound('unit_7')).toEqual(['Unit_7 Tower, Underscore Lane']);
      expect(await addressesFound('彌敦道')).toEqual(['九龍尖沙咀彌敦道 50 號 NATHAN ROAD', '香港九龍旺角彌敦道 600 號']);
      expect(await addressesFound('旺角')).toEqual(['香港九龍旺角彌敦道 600 號']);
      expect(await addressesFound('號 nathan road')).toEqual(['九龍尖沙咀彌敦道 50 號 NATHAN ROAD']);
    });

    it('filters the machine list by "address contains" exactly as a plain scan', async () => {
      const all = await machinesOf();
      for (const q of TERMS) {
        const expected = all.filter((row) => (row.address ?? '').toLowerCase().includes(q.toLowerCase())).sort(byTermNo);
        const answer = await call('POST', '/rvm/page', { pageNum: 1, pageSize: 500, addressLike: q });
        expect(answer.body.resCode, q).toBe('00000');
        expect(answer.body.resData.total, q).toBe(expected.length);
        expect(
          (answer.body.resData.list as Array<{ id: number }>).map((row) => row.id),
          q,
        ).toEqual(expected.map((row) => row.id));
      }
    });

    it('gives every contains filter of every declaration a trigram index, usable by the generated condition', async () => {
      const { models } = context.server.app.services;
      const wanted = trigramIndexesOf(models);
      const indexes = rowsOf<{ name: string; definition: string }>(
        await context.server.db.execute(sql`select indexname as name, indexdef as definition from pg_indexes where indexdef like '%gin_trgm_ops%'`),
      );
      const defined = new Map(indexes.map((index) => [index.name, index.definition]));
      // The machine columns search reads, and other declarations' filters (those come from the declarations alone).
      const names = wanted.map((index) => index.name);
      expect(names).toEqual(
        expect.arrayContaining(['rvm_address_trgm_idx', 'rvm_serial_number_trgm_idx', 'rvm_term_no_trgm_idx', 'sys_user_email_trgm_idx', 'sys_role_name_trgm_idx']),
      );
      for (const model of models.values()) {
        for (const filter of model.declaration.list.filters.filter((candidate) => candidate.operator === 'like')) {
          const column = model.columns[filter.field];
          if (!column || !/char|text/i.test(column.getSQLType())) continue;
          expect(names, `${model.declaration.name}.${filter.name}`).toContain(`${getTableName(model.table)}_${column.name}_trgm_idx`);
        }
      }
      for (const index of wanted) expect(defined.get(index.name), index.name).toMatch(new RegExp(`USING gin \\(${index.column} gin_trgm_ops\\)`));

      // The condition the machine list generates for addressLike can be answered from the index; under 3
      // characters there is no trigram to look up, and the condition leaves the index alone (a full read of it is
      // slower than reading the rows), even when the planner is told to avoid reading the table.
      const machine = models.get('machine')!;
      const planOf = (addressLike: string) => {
        const [condition] = filterConditions(machine, { addressLike });
        return context.server.db.transaction(async (tx) => {
          await tx.execute(sql`set local enable_seqscan = off`);
          return rowsOf<Record<string, string>>(await tx.execute(sql`explain ${tx.select({ id: rvm.id }).from(rvm).where(condition)}`))
            .map((row) => Object.values(row)[0])
            .join('\n');
        });
      };
      expect(await planOf('Nathan')).toContain('rvm_address_trgm_idx');
      expect(await planOf('Nat')).toContain('rvm_address_trgm_idx');
      for (const short of ['Na', 'N', '旺角']) expect(await planOf(short), short).not.toContain('rvm_address_trgm_idx');
      // 2 characters are looked up in the index of the copy's 2-character pieces; 1 character reads the rows
      for (const two of ['Na', '旺角']) expect(await planOf(two), two).toContain('rvm_address_bigram_idx');
      expect(await planOf('N')).not.toContain('rvm_address_bigram_idx');
    });

    it('keeps a lower-case copy of every contains-searched column and an index of its 2-character pieces, which a short text uses instead of lower() of every row', async () => {
      const { models } = context.server.app.services;
      const wanted = containsColumns(models);
      const columns = rowsOf<{ name: string; generated: string; expression: string | null }>(
        await context.server.db.execute(sql`select table_name || '.' || column_name as name, is_generated as generated, generation_expression as expression
        from information_schema.columns where table_schema = current_schema() and column_name like '%\_\_folded'`),
      );
      const copies = new Map(columns.map((column) => [column.name, column]));
      expect(wanted.map(({ table, column }) => `${table}.${column}`)).toEqual(expect.arrayContaining(['rvm.address', 'rvm.term_no', 'sys_user.email', 'sys_role.name']));
      const bigramIndexes = rowsOf<{ name: string; definition: string }>(
        await context.server.db.execute(sql`select indexname as name, indexdef as definition from pg_indexes where indexname like '%\_bigram\_idx'`),
      );
      const indexed = new Map(bigramIndexes.map((index) => [index.name, index.definition]));
      for (const { model, field, table, column } of wanted) {
        expect(indexed.get(bigramIndexName(table, column)), `${table}.${column}`).toMatch(new RegExp(`USING gin \\(contains_bigrams\\(${foldedColumnName(column)}\\)\\)`));
        const copy = copies.get(`${table}.${foldedColumnName(column)}`);
        expect([copy?.generated, copy?.expression?.replace(/[()"]|::text/g, '')], `${table}.${column}`).toEqual(['ALWAYS', `lower${column}`]);
        expect(model.shortContains[field], `${model.declaration.name}.${field}`).toBeDefined();
      }
      // the short form reads the copy; from 3 characters on it is the indexed ilike on the column itself
      const machine = models.get('machine')!;
      const text = (addressLike: string) => new PgDialect().sqlToQuery(filterConditions(machine, { addressLike })[0]).sql;
      expect(text('P')).toBe('strpos("rvm"."address__folded", lower($1)) > 0');
      expect(text('Po')).toBe('contains_bigrams("rvm"."address__folded") @> contains_bigrams(lower($1)) and strpos("rvm"."address__folded", lower($2)) > 0');
      expect(text('Pol')).toBe('"rvm"."address" ilike $1');
      // a copy follows its column: an address written now is found by its new words only
      const [first] = await machinesOf();
      await context.server.db.update(rvm).set({ address: 'Zq Lane' }).where(eq(rvm.id, first.id));
      const found = async (addressLike: string) =>
        (await call('POST', '/rvm/page', { pageNum: 1, pageSize: 500, addressLike })).body.resData.list.map((row: { id: number }) => row.id);
      expect(await found('zQ')).toEqual([first.id]);
      await context.server.db.update(rvm).set({ address: first.address }).where(eq(rvm.id, first.id));
      expect(await found('zQ')).toEqual([]);
      // a second instance on the same database adds nothing and uses the copies as well
      const again = await createFoldedColumns(context.server.db, models);
      expect(again).toEqual([]);
    });

    it('analyses a table whose 2-character index it has just built only when the table holds rows (an empty one stays "never analysed")', async () => {
      const { db } = context.server;
      await db.execute(sql`create table tin (id integer primary key, code varchar(20))`);
      try {
        const models = new Map([['tin', buildModel(tin, { tin: tinTable })]]);
        const rowEstimate = async () =>
          Number(rowsOf<{ estimate: number }>(await db.execute(sql`select reltuples as estimate from pg_class where oid = 'tin'::regclass`))[0].estimate);
        const indexStatistics = async () =>
          Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from pg_stats where tablename = ${bigramIndexName('tin', 'code')}`))[0].n);
        expect(await createFoldedColumns(db, models)).toEqual(['tin.code__folded', 'tin_code_bigram_idx']);
        // -1: the planner assumes a few pages, so plans cached while a seed fills the table still use its indexes
        expect(await rowEstimate()).toBe(-1);
        await db.execute(sql`insert into tin select n, 'Code ' || n from generate_series(1, 50) n`);
        await db.execute(sql.raw(`drop index ${bigramIndexName('tin', 'code')}`));
        expect(await createFoldedColumns(db, models)).toEqual(['tin_code_bigram_idx']);
        // filled: analysed, so the planner knows how many rows hold each piece of the index's expression
        expect(await rowEstimate()).toBe(50);
        expect(await indexStatistics()).toBeGreaterThan(0);
        expect(models.get('tin')!.shortContains.code).toBeDefined();
      } finally {
        await db.execute(sql`drop table tin`);
      }
    });
  },
  setup,
);

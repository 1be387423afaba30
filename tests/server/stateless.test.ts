// Two app instances on one database behave as one: tokens, logout and lock-out counters are shared.
// On PostgreSQL the second instance has its own connection pool, as a second process would, and
// two instances may start together on an empty database (migrations under an advisory lock).
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import { describeBackends, TEST_CONFIG } from './helpers';

describeBackends('stateless instances', (server, backend) => {
  let other: FastifyInstance;
  let otherDatabase: Database | undefined;

  beforeAll(async () => {
    otherDatabase = server.backend === 'postgres' ? await openDatabase({ databaseUrl: server.databaseUrl }) : undefined;
    other = await server.anotherInstance(otherDatabase ? { database: otherDatabase } : {});
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  const call = (app: FastifyInstance, method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    app.inject({ method, url: `/test-api${url}`, headers: token ? { 'rvm-token': token } : {}, ...(payload ? { payload } : {}) }).then((response) => response.json());

  it('a token issued by one instance works on the other; logout on one kills it on both', async () => {
    const login = await call(server.app, 'POST', '/login/login', undefined, { username: 'admin', password: 'Admin@123' });
    const token = login.resData.tokenInfo.tokenValue;
    expect((await call(other, 'GET', '/login/current', token)).resCode).toBe('00000');
    expect((await call(other, 'GET', '/login/logout', token)).resCode).toBe('00000');
    expect((await call(server.app, 'GET', '/login/current', token)).resCode).toBe('11015');
    expect((await call(other, 'GET', '/login/current', token)).resCode).toBe('11015');
  });

  it('counts sign-in failures across instances', async () => {
    const attempt = (app: FastifyInstance) => call(app, 'POST', '/login/login', undefined, { username: 'admin', password: 'wrong' });
    expect((await attempt(server.app)).resMsg).toMatch(/4 times$/);
    expect((await attempt(other)).resMsg).toMatch(/3 times$/);
    expect((await attempt(server.app)).resMsg).toMatch(/2 times$/);
    expect((await attempt(other)).resMsg).toMatch(/1 times$/);
    expect((await attempt(server.app)).resCode).toBe('7');
    expect((await call(other, 'POST', '/login/login', undefined, { username: 'admin', password: 'Admin@123' })).resCode).toBe('7');
  });

  it.skipIf(backend !== 'postgres')('two instances starting together on an empty PostgreSQL database migrate and seed once', async () => {
    const name = `rvm_t_race_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${name}`;
    try {
      const apps = await Promise.all([0, 1].map(() => buildApp({ databaseUrl: url.toString(), config: TEST_CONFIG })));
      const users = rowsOf<{ n: number }>(await apps[0].services.db.execute(sql`select count(*)::int as n from sys_user`));
      expect(users[0].n).toBe(1);
      for (const app of apps) await app.close();
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});

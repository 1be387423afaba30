// Callers kept in memory (server/auth/callerCache.ts): a repeated call is answered without reading the
// caller again, and nothing stale is ever served: this instance's own changes count before its answer,
// another connection's (another instance) as soon as its notification arrives, and while changes cannot
// be heard nothing is kept.
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { CALLER_CHANGES_APPLICATION } from '../../server/db/callerChanges';
import { sysRolePermission, sysUser } from '../../server/db/schema';
import { describeBackends, type TestServer } from './helpers';

/** Polls `check` until it holds or `timeoutMs` passes (a notification travels asynchronously). */
const eventually = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
};

const callersOf = (server: TestServer) => {
  const callers = server.app.services.callers;
  if (!callers) throw new Error('the app keeps no callers');
  return callers;
};

describeBackends('callers kept in memory', (server, backend) => {
  const current = (token: string) => server.call('GET', '/login/current', { token });
  /** Calls until one is answered from memory (a notification of an earlier change may still be arriving). */
  const answeredFromMemory = (call: () => Promise<{ body: { resCode: string } }>) =>
    eventually(async () => {
      const hits = callersOf(server).hits;
      expect((await call()).body.resCode).toBe('00000');
      return callersOf(server).hits > hits;
    });
  const machinePage = (token: string) => server.call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 1 } });

  const machinePagePermission = async () => rowsOf<{ id: number }>(await server.db.execute(sql`select id from sys_permission where identifier = 'machine:page'`))[0];

  /** A clerk whose role grants the machine list, signed in. */
  const clerk = async (name: string) => {
    const admin = await server.login();
    const { id: permissionId } = await machinePagePermission();
    const role = await server.call('POST', '/role', { token: admin, body: { name: `Role ${name}`, description: 'machine list', permissions: [permissionId] } });
    expect(role.body.resCode).toBe('00000');
    const roleId = role.body.resData.id as number;
    await server.createUser({ name, password: 'Good#1234', roles: [roleId] }, admin);
    return { admin, roleId, permissionId, token: await server.login(name, 'Good#1234') };
  };

  it('answers a repeated call from memory, and a sign-out of this instance counts at once', async () => {
    const callers = callersOf(server);
    const token = await server.login();
    expect(await answeredFromMemory(() => current(token))).toBe(true);
    expect(callers.size).toBeGreaterThan(0);
    expect((await server.call('GET', '/login/logout', { token })).body.resCode).toBe('00000');
    expect((await current(token)).body.resCode).toBe('11015');
  });

  it('a permission taken away or a user disabled counts on the next call, also when written straight into the database', async () => {
    const callers = callersOf(server);
    const { admin, roleId, token } = await clerk('keeper');
    expect(await answeredFromMemory(() => machinePage(token))).toBe(true);
    expect(callers.size).toBeGreaterThan(0);

    // through the API: the role loses its permissions
    const edit = await server.call('PUT', '/role', { token: admin, body: { id: roleId, permissions: [] } });
    expect(edit.body.resCode).toBe('00000');
    expect((await machinePage(token)).body.resCode).toBe('4003');

    // straight into the database, on the instance's own connections
    await server.db.insert(sysRolePermission).values({ roleId, permissionId: (await machinePagePermission()).id });
    expect(await answeredFromMemory(() => machinePage(token))).toBe(true);
    await server.db.update(sysUser).set({ enabled: false }).where(eq(sysUser.name, 'keeper'));
    expect((await machinePage(token)).body.resCode).toBe('11015');
  });

  it('a change inside a transaction counts from its commit: a caller read while it was open is not served after it', async () => {
    const { token } = await clerk('pending');
    expect(await answeredFromMemory(() => machinePage(token))).toBe(true);
    let readWhileOpen = '';
    await server.db.transaction(async (tx) => {
      await tx.update(sysUser).set({ enabled: false }).where(eq(sysUser.name, 'pending'));
      // another request while the change is not committed: it still sees the user enabled (and may keep that)
      if (backend === 'postgres') readWhileOpen = (await machinePage(token)).body.resCode;
    });
    if (backend === 'postgres') expect(readWhileOpen).toBe('00000');
    expect((await machinePage(token)).body.resCode).toBe('11015');
  });

  it('switching the license account counts on the next call', async () => {
    const admin = await server.login();
    const created = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: `Cache ${backend}`, businessUnit: 'HK', contact: 'Ms Lee' } });
    expect(created.body.resCode).toBe('00000');
    expect(await answeredFromMemory(() => current(admin))).toBe(true);
    expect((await server.call('PUT', `/license-account-user-relation?id=${created.body.resData.id}`, { token: admin })).body.resCode).toBe('00000');
    expect((await current(admin)).body.resData.licenseAccountId).toBe(created.body.resData.id);
  });

  it.skipIf(backend !== 'postgres')('a change made on another connection (another instance) counts as soon as its notification arrives', async () => {
    const { roleId, token } = await clerk('faraway');
    // kept: the next answer would be stale without the notification
    expect(await answeredFromMemory(() => machinePage(token))).toBe(true);

    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('delete from sys_role_permission where role_id = $1', [roleId]);
      expect(await eventually(async () => (await machinePage(token)).body.resCode === '4003')).toBe(true);
    } finally {
      await other.end();
    }
  });

  it.skipIf(backend !== 'postgres')('keeps nothing while it cannot hear changes, and keeps again once listening', async () => {
    const callers = callersOf(server);
    const { roleId, token } = await clerk('deaf');
    const admin = new pg.Client({ connectionString: server.databaseUrl });
    await admin.connect();
    try {
      // not live: every call reads the caller, so a change on another connection counts at once. The feed listens
      // again a second after losing its connection; two calls that outlast that on a busy machine prove nothing, so
      // the connection is cut again until both fit in the window (the condition, not the outcome, is what is retried).
      let checked = false;
      for (let attempt = 1; !checked; attempt++) {
        const listeners = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()`, [
          CALLER_CHANGES_APPLICATION,
        ]);
        expect(listeners.rowCount).toBeGreaterThanOrEqual(1);
        expect(await eventually(async () => !server.database.callerChanges.live)).toBe(true);
        const hits = callers.hits;
        expect((await machinePage(token)).body.resCode).toBe('00000');
        expect((await machinePage(token)).body.resCode).toBe('00000');
        if (!server.database.callerChanges.live) {
          expect(callers.hits).toBe(hits);
          checked = true;
        } else if (attempt === 10) throw new Error('the feed listened again before two calls had answered, 10 times');
        else expect(await eventually(async () => server.database.callerChanges.live)).toBe(true);
      }
      // listening again within a few seconds, then kept again
      expect(await eventually(async () => server.database.callerChanges.live)).toBe(true);
      expect(await answeredFromMemory(() => machinePage(token))).toBe(true);
      await admin.query('update sys_role set license_account_id = license_account_id where id = $1', [roleId]);
      await admin.query('delete from sys_role_permission where role_id = $1', [roleId]);
      expect(await eventually(async () => (await machinePage(token)).body.resCode === '4003')).toBe(true);
    } finally {
      await admin.end();
    }
  });
});

// The audit log (docs/audit-log.md): sign-in, sign-out and password entries with the request's address
// (trusted proxy), recordWrite in the write's transaction (a rollback leaves nothing), retention in batches,
// and System settings › Audit log: its permission, its scope, its filters and its export.
import { and, eq, like, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDITED_RESOURCES } from '../../resources/auditLog';
import { RESOURCES } from '../../resources';
import { answeredWorkSettled } from '../../server/auth/afterAnswer';
import { Caller, loadPrincipal } from '../../server/auth/principal';
import { recordEvent, recordWrite } from '../../server/audit/record';
import { AUDIT_RETENTION_JOB, deleteExpiredEntries } from '../../server/audit/retention';
import { auditLog, licenseAccount, sysUser } from '../../server/db/schema';
import { ADMIN, describeBackends } from './helpers';

const DAY = 24 * 60 * 60_000;
const CLIENT = '198.51.100.7';

describeBackends(
  'audit log',
  (server) => {
    let admin: string;
    let adminId: number;
    let accountId: number;
    let otherAccount: number;
    /** Through a proxy the app trusts (one hop): the client is the address it names. */
    const viaProxy = (method: 'POST' | 'GET' | 'PUT', url: string, options: { body?: object; token?: string } = {}) =>
      server.app.inject({
        method,
        url: `/test-api${url}`,
        headers: { 'x-forwarded-for': CLIENT, ...(options.token ? { 'rvm-token': options.token } : {}) },
        ...(options.body ? { payload: options.body } : {}),
      });
    const entries = (where: SQL | undefined) => server.db.select().from(auditLog).where(where).orderBy(auditLog.id);
    const lastOf = async (action: string, userName: string) => (await entries(and(eq(auditLog.action, action), eq(auditLog.userName, userName)))).at(-1);
    const page = (token: string, body: Record<string, unknown> = {}) => server.call('POST', '/audit-entry/page', { token, body: { pageNum: 1, pageSize: 100, ...body } });

    beforeAll(async () => {
      admin = await server.login();
      const [row] = await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, ADMIN.username));
      adminId = row.id;
      accountId = (await loadPrincipal(server.db, { id: 0, userId: adminId, utcOffsetMinutes: null })).licenseAccountId as number;
      [{ id: otherAccount }] = await server.db.insert(licenseAccount).values({ licenseAccountName: 'Audit elsewhere' }).returning({ id: licenseAccount.id });
    });

    it('records a sign-in with the user, their account and the client address', async () => {
      const answer = await viaProxy('POST', '/login/login', { body: ADMIN });
      expect(answer.json().resCode).toBe('00000');
      expect(await lastOf('signIn', 'admin')).toMatchObject({
        licenseAccountId: accountId,
        userId: adminId,
        resource: 'user',
        recordId: adminId,
        outcome: 'success',
        address: CLIENT,
        changes: null,
      });
    });

    it('records failed sign-ins under the name tried: a known user in their account, an unknown name in none', async () => {
      await server.createUser({ name: 'aud1', password: 'Right#123' }, admin);
      const [aud1] = await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'aud1'));
      expect((await viaProxy('POST', '/login/login', { body: { username: 'aud1', password: 'Wrong#123' } })).json().resCode).toBe('6');
      expect((await viaProxy('POST', '/login/login', { body: { username: 'nobody9', password: 'Wrong#123' } })).json().resCode).toBe('6');
      expect(await lastOf('signIn', 'aud1')).toMatchObject({
        licenseAccountId: accountId,
        userId: aud1.id,
        recordId: aud1.id,
        outcome: 'failure',
        detail: { reason: 'wrongPassword' },
        address: CLIENT,
      });
      expect(await lastOf('signIn', 'nobody9')).toMatchObject({ licenseAccountId: null, userId: null, recordId: null, outcome: 'failure', detail: { reason: 'unknownUser' } });
      // neither entry keeps the password typed
      expect(JSON.stringify(await entries(like(auditLog.userName, 'nobody9')))).not.toContain('Wrong#123');
    });

    it('records a password change and an administrator reset without any password or hash', async () => {
      await server.createUser({ name: 'aud2', password: 'Old#1234' }, admin);
      const token = await server.login('aud2', 'Old#1234');
      const changed = await viaProxy('PUT', `/user/password?password=${encodeURIComponent('New#1234')}`, { token, body: { oldPassword: 'Old#1234' } });
      expect(changed.json().resCode).toBe('00000');
      const [user] = await server.db.select({ id: sysUser.id, hash: sysUser.password }).from(sysUser).where(eq(sysUser.name, 'aud2'));
      const change = await lastOf('passwordChange', 'aud2');
      expect(change).toMatchObject({ userId: user.id, resource: 'user', recordId: user.id, outcome: 'success', address: CLIENT, changes: null, licenseAccountId: accountId });
      expect((await server.call('PUT', '/user/resetPassword', { token: admin, body: { id: user.id, password: 'Reset#123' } })).body.resCode).toBe('00000');
      const reset = await lastOf('passwordReset', 'admin');
      expect(reset).toMatchObject({ userId: adminId, recordId: user.id, outcome: 'success', address: '127.0.0.1' });
      const [after] = await server.db.select({ hash: sysUser.password }).from(sysUser).where(eq(sysUser.id, user.id));
      for (const secret of ['Old#1234', 'New#1234', 'Reset#123', user.hash, after.hash]) {
        expect(JSON.stringify([change, reset])).not.toContain(secret);
      }
    });

    it("records a password set by a reset link as the user's own entry", async () => {
      await server.createUser({ name: 'aud3', email: 'aud3@example.com' }, admin);
      const send = vi.spyOn(server.app.services.mailer, 'send');
      try {
        await server.call('POST', '/login/forgotPassword', { body: { account: 'aud3' } });
        await answeredWorkSettled(server.app.services);
        const token = decodeURIComponent(send.mock.calls[0][1].text.match(/\/resetPassword\?token=(\S+)/)?.[1] ?? '');
        const answer = await server.call('POST', '/login/resetPassword', { body: { token, password: 'Link#1234', confirmPassword: 'Link#1234' } });
        expect(answer.body.resCode).toBe('00000');
      } finally {
        send.mockRestore();
      }
      const [user] = await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'aud3'));
      expect(await lastOf('passwordResetByLink', 'aud3')).toMatchObject({ userId: user.id, recordId: user.id, licenseAccountId: accountId, outcome: 'success' });
    });

    it('records a sign-out', async () => {
      const token = await server.login();
      expect((await viaProxy('GET', '/login/logout', { token })).json().resCode).toBe('00000');
      expect(await lastOf('signOut', 'admin')).toMatchObject({ userId: adminId, recordId: adminId, outcome: 'success', address: CLIENT });
    });

    describe('recordWrite', () => {
      const callerOf = async () => new Caller(server.db, server.app.services.config, await loadPrincipal(server.db, { id: 0, userId: adminId, utcOffsetMinutes: null }), 'en');

      it('keeps the changed fields only, secrets redacted, in the transaction it is given', async () => {
        const caller = await callerOf();
        await server.db.transaction((tx) =>
          recordWrite(tx, {
            caller,
            resource: 'user',
            action: 'update',
            recordId: 991,
            before: { id: 991, realname: 'Ann', email: 'a@x.io', roles: [3, 1], password: 'scrypt$old', enabled: true },
            after: { realname: 'Anne', email: 'a@x.io', roles: [1, 3, 4], password: 'Secret#99', enabled: false },
            secretFields: ['password'],
            address: '203.0.113.5',
          }),
        );
        const [entry] = await entries(and(eq(auditLog.resource, 'user'), eq(auditLog.recordId, 991)));
        expect(entry).toMatchObject({ licenseAccountId: accountId, userId: adminId, userName: 'admin', action: 'update', outcome: 'success', address: '203.0.113.5' });
        expect(JSON.parse(entry.changes as string)).toEqual({
          realname: { before: 'Ann', after: 'Anne' },
          roles: { before: [1, 3], after: [1, 3, 4] },
          password: { redacted: true },
          enabled: { before: true, after: false },
        });
        expect(entry.changes).not.toContain('Secret#99');
      });

      it('leaves no entry when the write rolls back', async () => {
        const caller = await callerOf();
        const write = server.db.transaction(async (tx) => {
          await recordWrite(tx, { caller, resource: 'fleet', action: 'create', recordId: 992, after: { name: 'North' }, secretFields: [] });
          throw new Error('the write failed after its entry');
        });
        await expect(write).rejects.toThrow('the write failed');
        expect(await entries(and(eq(auditLog.resource, 'fleet'), eq(auditLog.recordId, 992)))).toEqual([]);
      });
    });

    it('deletes entries past the retention in bounded batches, and only those', async () => {
      const now = new Date();
      const at = (days: number) => new Date(now.getTime() - days * DAY);
      const entry = (days: number) => ({
        licenseAccountId: accountId,
        userId: adminId,
        userName: 'admin',
        action: 'update',
        resource: 'retained',
        recordId: days,
        outcome: 'success',
        time: at(days),
      });
      await server.db.insert(auditLog).values([400, 390, 380, 370, 366, 364, 1].map(entry));
      const kept = async () => (await entries(eq(auditLog.resource, 'retained'))).map((row) => row.recordId);
      // one statement of two rows per run at most: the oldest go first, the rest wait for the next run
      expect(await deleteExpiredEntries(server.db, 365, now, { batchRows: 2, batchesPerRun: 1 })).toBe(2);
      expect(await kept()).toHaveLength(5);
      expect(await deleteExpiredEntries(server.db, 365, now, { batchRows: 2, batchesPerRun: 10 })).toBe(3);
      expect(await kept()).toEqual([364, 1]);
      // the job runs with AUDIT_RETENTION_DAYS (365 by default); a second instance running it too finds nothing left
      await server.app.services.jobs.runNow(AUDIT_RETENTION_JOB, new Date(now.getTime() + 2 * DAY));
      expect(await kept()).toEqual([1]);
      expect(await deleteExpiredEntries(server.db, 365, new Date(now.getTime() + 2 * DAY))).toBe(0);
    });

    describe('System settings › Audit log', () => {
      let viewer: string;
      let foreignId: number;
      let accountlessId: number;

      beforeAll(async () => {
        const role = await server.call('POST', '/role', { token: admin, body: { name: 'Auditors', permissions: [210601, 210602] } });
        expect(role.body.resCode).toBe('00000');
        await server.createUser({ name: 'auditor', roles: [role.body.resData.id] }, admin);
        await server.createUser({ name: 'noaudit' }, admin);
        viewer = await server.login('auditor', 'Passw0rd!');
        const foreign = {
          licenseAccountId: otherAccount,
          userId: 1,
          userName: 'elsewhere',
          action: 'delete' as const,
          resource: 'fleet',
          recordId: 7,
          outcome: 'success' as const,
        };
        const [[foreign1], [accountless]] = await Promise.all([
          server.db.insert(auditLog).values(foreign).returning({ id: auditLog.id }),
          server.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.userName, 'nobody9')),
        ]);
        foreignId = foreign1.id;
        accountlessId = accountless.id;
        await recordEvent(server.db, {
          licenseAccountId: accountId,
          userId: adminId,
          userName: 'admin',
          action: 'command.restart',
          resource: 'machine',
          recordId: 55,
          target: { rvmIds: [55], commandIds: [9] },
          detail: { params: {} },
          outcome: 'queued',
          address: '192.0.2.1',
        });
      });

      it('is refused without auditLog:page (4003)', async () => {
        const token = await server.login('noaudit', 'Passw0rd!');
        expect((await page(token)).body.resCode).toBe('4003');
        expect((await server.call('POST', '/audit-entry/export', { token, body: { format: 'csv' } })).body.resCode).toBe('4003');
      });

      it("lists the caller's license account only, newest first; a superAdmin also sees entries of no account", async () => {
        const listed = (await page(viewer)).body;
        expect(listed.resCode).toBe('00000');
        const ids = listed.resData.list.map((row: { id: number }) => row.id);
        const times = listed.resData.list.map((row: { time: string }) => row.time);
        expect(times).toEqual([...times].sort().reverse());
        expect(ids).not.toContain(foreignId);
        expect(ids).not.toContain(accountlessId);
        expect((await server.call('GET', `/audit-entry/${foreignId}`, { token: viewer })).body.resCode).toBe('2003');
        const superAdmin = (await page(admin)).body.resData.list.map((row: { id: number }) => row.id);
        expect(superAdmin).toContain(accountlessId);
        expect(superAdmin).not.toContain(foreignId);
      });

      it('filters by user, action, resource, record, address and time', async () => {
        const names = async (filters: Record<string, unknown>) =>
          (await page(viewer, filters)).body.resData.list.map((row: { userName: string; action: string }) => `${row.userName} ${row.action}`);
        expect(new Set(await names({ userNameLike: 'aud1' }))).toEqual(new Set(['aud1 signIn']));
        expect(await names({ action: ['command.restart'] })).toEqual(['admin command.restart']);
        expect(await names({ resource: ['machine'], recordId: 55 })).toEqual(['admin command.restart']);
        expect(await names({ address: '192.0.2.1' })).toEqual(['admin command.restart']);
        expect(await names({ timeFrom: new Date(Date.now() + DAY).toISOString() })).toEqual([]);
      });

      it('shows an entry with its changes and details as JSON text', async () => {
        const [entry] = await entries(and(eq(auditLog.resource, 'user'), eq(auditLog.recordId, 991)));
        const shown = (await server.call('GET', `/audit-entry/${entry.id}`, { token: viewer })).body.resData;
        expect(JSON.parse(shown.changes).realname).toEqual({ before: 'Ann', after: 'Anne' });
        const [command] = await entries(eq(auditLog.address, '192.0.2.1'));
        const details = (await server.call('GET', `/audit-entry/${command.id}`, { token: viewer })).body.resData.details;
        expect(JSON.parse(details)).toEqual({ rvmIds: [55], commandIds: [9], params: {} });
      });

      it("exports with labels in the caller's language", async () => {
        const answer = await server.call('POST', '/audit-entry/export', { token: viewer, body: { format: 'csv', action: ['command.restart', 'signIn'] }, lang: 'zh' });
        expect(answer.status).toBe(200);
        expect(answer.raw.body).toContain('远程命令：重启');
        expect(answer.raw.body).toContain('登录');
      });

      it('keeps the remote control route to machine actions', async () => {
        const answer = await server.call('POST', '/audit-log/page', { token: admin, body: { pageNum: 1, pageSize: 100 } });
        expect(answer.body.resCode).toBe('00000');
        expect(answer.body.resData.list.map((row: { action: string }) => row.action)).toEqual(['command.restart']);
      });
    });

    it('names every writable code-declared resource among the audited resources (their labels)', () => {
      const writable = RESOURCES.filter((declaration) => declaration.permissions.create || declaration.permissions.edit || declaration.permissions.delete);
      expect(AUDITED_RESOURCES).toEqual(expect.arrayContaining(writable.map((declaration) => declaration.name)));
    });
  },
  { config: { trustProxy: 1 } },
);

// Service personnel and bans (docs/service-personnel.md): the rules and their errors, then end to end with a
// simulated machine on the real gateway: the personnel package reaches it with salted hashes only (a technician
// signs in with the password, the visit names the person), and a deployed ban list makes it refuse a banned
// consumer, the refusal visible in its consumer sessions.
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { deploymentTarget } from '../../server/db/schema/deployments';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { servicePersonnel } from '../../server/db/schema/personnel';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { issueCredential } from '../../server/gateway/credentials';
import { VirtualMachine } from '../../server/simulator/machine';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { reservePort } from '../robust/childServer';
import { describeOneBackend } from './helpers';

// held until the server listens (reservePort: a port merely found free can be taken meanwhile)
const reserved = await reservePort();
const port = reserved.port;
const PASSWORD = 'Keypad-4711';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describeOneBackend(
  'service personnel and bans',
  (server) => {
    let token = '';
    let machine: VirtualMachine | undefined;
    afterAll(async () => {
      await reserved.release();
      await machine?.stop();
    });
    const post = (path: string, body: unknown) => server.call('POST', path, { token, body });

    it('a personnel package needs someone in it (9700)', async () => {
      token = await server.login();
      const empty = await post('/personnel-package', {});
      expect(empty.body.resCode).toBe('9700');
      expect(empty.body.resMsg).toBe('There is no enabled service personnel to put in a package');
      const zh = await server.call('POST', '/personnel-package', { token, body: {}, headers: { lang: 'zh' } });
      expect(zh.body.resMsg).toBe('没有可放入包中的已启用服务人员');
    });

    it('stores a person with a salted hash only, never answers it; login names are unique and keypad-typable', async () => {
      const created = await post('/service-personnel', { loginName: 'tech.wong', realName: 'Wong Ka Ming', accessLevel: 'advanced', company: 'CleanCo', password: PASSWORD });
      expect(created.body.resCode, created.body.resMsg).toBe('00000');
      const id = created.body.resData.id as number;
      const [row] = await server.db.select().from(servicePersonnel).where(eq(servicePersonnel.id, id));
      expect(row.password).toMatch(/^scrypt\$\d+\$8\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(row.password).not.toContain(PASSWORD);
      const shown = await server.call('GET', `/service-personnel/${id}`, { token });
      expect(shown.body.resData).toMatchObject({ loginName: 'tech.wong', accessLevel: 'advanced' });
      expect(JSON.stringify(shown.body.resData)).not.toContain('scrypt$');
      const again = await post('/service-personnel', { loginName: 'tech.wong', realName: 'Another', accessLevel: 'normal', password: PASSWORD });
      expect(again.body.resCode).toBe('2002');
      const spaced = await post('/service-personnel', { loginName: 'tech wong', realName: 'X', accessLevel: 'normal', password: PASSWORD });
      expect(spaced.body.resCode).toBe('1004');
      expect(spaced.body.resData.issues[0]).toMatchObject({ field: 'loginName', message: 'Only letters, digits and . _ - are allowed' });
      const level = await post('/service-personnel', { loginName: 'x1', realName: 'X', accessLevel: 'expert', password: PASSWORD });
      expect(level.body.resCode).toBe('1004');
      // what a normal technician may do on a machine: one setting per level
      const normal = await post('/personnel-access-level', { level: 'normal', actions: 'emptyBins,clean', signOutMinutes: 15 });
      expect(normal.body.resCode, normal.body.resMsg).toBe('00000');
      expect((await post('/personnel-access-level', { level: 'normal', actions: 'clean', signOutMinutes: 15 })).body.resCode).toBe('2002');
      const unknown = await post('/personnel-access-level', { level: 'advanced', actions: 'clean,fly', signOutMinutes: 15 });
      expect(unknown.body.resData.issues[0]).toMatchObject({ field: 'actions', message: 'Choose actions from the list' });
    });

    it('a ban ends after it starts and in the future; one ban per consumer', async () => {
      const backwards = await post('/consumer-ban', { consumerKind: 'userId', consumerId: 'U-77', reason: 'Fraud', startTime: inDays(3), endTime: inDays(1) });
      expect(backwards.body.resCode).toBe('1004');
      expect(backwards.body.resData.issues[0]).toMatchObject({ field: 'endTime', message: 'The end must be after the start' });
      const past = await post('/consumer-ban', { consumerKind: 'userId', consumerId: 'U-77', reason: 'Fraud', startTime: inDays(-3), endTime: inDays(-1) });
      expect(past.body.resData.issues[0]).toMatchObject({ field: 'endTime', message: 'The end must be in the future' });
      const ban = await post('/consumer-ban', { consumerKind: 'userId', consumerId: 'U-77', reason: 'Fed stones', startTime: inDays(-1), endTime: inDays(30) });
      expect(ban.body.resCode, ban.body.resMsg).toBe('00000');
      expect((await server.call('GET', `/consumer-ban/${ban.body.resData.id}`, { token })).body.resData.state).toBe('active');
      const twice = await post('/consumer-ban', { consumerKind: 'userId', consumerId: 'U-77', reason: 'Again', startTime: inDays(0), endTime: inDays(2) });
      expect(twice.body.resCode).toBe('2002');
      expect(twice.body.resData.issues[0]).toMatchObject({ field: 'consumerId', message: 'This consumer is already banned: edit that ban instead' });
      // the same id as a card is another consumer
      expect((await post('/consumer-ban', { consumerKind: 'card', consumerId: 'U-77', reason: 'Lost card', startTime: inDays(0), endTime: inDays(2) })).body.resCode).toBe('00000');
    });

    it('making the packages and reading the deploy list need their own permissions (4003)', async () => {
      await server.createUser({ name: 'noperson', email: 'noperson@example.com' });
      const other = await server.login('noperson', 'Passw0rd!');
      for (const [method, path] of [
        ['POST', '/personnel-package'],
        ['POST', '/consumer-ban/package'],
        ['GET', '/personnel-deploy'],
        ['GET', '/personnel-package/preview'],
      ] as const) {
        const answer = await server.call(method, path, { token: other, ...(method === 'POST' ? { body: {} } : {}) });
        expect(answer.body.resCode, path).toBe('4003');
      }
      expect((await server.call('POST', '/consumer-ban/page', { token: other, body: { pageNum: 1, pageSize: 10 } })).body.resCode).toBe('4003');
    });

    it('a machine gets the personnel (hashes only) and the ban list, signs the person in, refuses the banned consumer', async () => {
      await reserved.release();
      await server.app.listen({ port, host: '127.0.0.1' });
      const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId as number;
      const [root] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Personnel fleet', level: 1 }).returning({ id: fleet.id });
      const [row] = await server.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId: root.id, termNo: 'PB1', serialNumber: 'SIM-PB1', termType: 'H30', binCount: 2, softwareVersion: '5.0.0' })
        .returning();
      const secret = await issueCredential(server.db, row, null);
      machine = new VirtualMachine({
        profile: { serialNumber: row.serialNumber, termType: row.termType, binCount: 2, softwareVersion: '5.0.0', sessionsPerDay: 40 },
        credentials: { serialNumber: row.serialNumber, secret, brokerUrl: server.app.services.gateway.machineUrl! },
        seed: 'personnel',
        speed: 1000,
        failureRate: 0,
        autopilot: false,
      });
      machine.start();
      await waitFor(
        async () => (await server.db.select().from(rvm).where(eq(rvm.id, row.id)))[0],
        (found) => found.online,
        'machine online',
      );

      const personnel = await post('/personnel-package', { adaptedModels: 'H30' });
      expect(personnel.body.resCode, personnel.body.resMsg).toBe('00000');
      expect(personnel.body.resData).toMatchObject({ resourceType: 'personnel', people: 1 });
      const bans = await post('/consumer-ban/package', { adaptedModels: 'H30' });
      expect(bans.body.resData).toMatchObject({ resourceType: 'banList', bans: 2 });
      for (const packageId of [personnel.body.resData.id, bans.body.resData.id]) {
        const created = await post('/deployment', { packageId, targets: { machineIds: [row.id] }, waves: [100] });
        expect(created.body.resCode, created.body.resMsg).toBe('00000');
        await server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
        await server.app.services.jobs.runNow('gatewayDeliverPackages');
        await waitFor(
          () => server.db.select().from(deploymentTarget).where(eq(deploymentTarget.deploymentId, created.body.resData.id)),
          (found) => found[0]?.status === 'applied',
          'delivery applied',
        );
      }
      const listed = await server.call('GET', '/personnel-deploy', { token });
      expect(listed.body.resData.map((item: { latestDeployment: { applied: number } }) => item.latestDeployment.applied)).toEqual([1, 1]);

      // on the machine: the person and the levels, the password nowhere, only its salted hash
      const held = machine.roster.personnel!;
      expect(held.personnel).toEqual([expect.objectContaining({ loginName: 'tech.wong', accessLevel: 'advanced', passwordHash: expect.stringMatching(/^scrypt\$/) })]);
      expect(held.levels.normal).toEqual({ actions: ['emptyBins', 'clean'], signOutMinutes: 15 });
      expect(JSON.stringify(held)).not.toContain(PASSWORD);
      expect(await machine.roster.signIn('tech.wong', PASSWORD)).toMatchObject({ realName: 'Wong Ka Ming' });
      expect(await machine.roster.signIn('tech.wong', 'wrong-pass')).toBeNull();

      // the visit names the person; the console shows who it was
      await machine.serviceVisit('repair');
      const visits = await waitFor(
        () => post('/rvmpage/serviceSessions', { id: row.id }),
        (answer) => answer.body.resData?.total === 1,
        'service session stored',
      );
      expect(visits.body.resData.list[0]).toMatchObject({ technician: 'tech.wong', personnel: { realName: 'Wong Ka Ming', company: 'CleanCo', accessLevel: 'advanced' } });

      // the banned consumer is refused; another is served
      await machine.arrive({ userId: 'U-77' });
      await machine.arrive({ userId: 'U-1' });
      const sessions = await waitFor(
        () => post('/rvmpage/consumerSessions', { id: row.id }),
        (answer) => answer.body.resData?.total === 2,
        'two consumer sessions',
      );
      const refused = sessions.body.resData.list.filter((session: { refusal: string | null }) => session.refusal === 'banned');
      expect(refused).toEqual([expect.objectContaining({ userId: 'U-77', itemCount: 0, totalRefund: 0, refusal: 'banned' })]);
      expect(sessions.body.resData.list.find((session: { refusal: string | null }) => session.refusal === null)?.itemCount).toBeGreaterThan(0);
    });
  },
  { gateway: { ...embeddedGateway(), apiBase: `http://127.0.0.1:${port}/test-api` } },
);

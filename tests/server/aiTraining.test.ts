// AI training (docs/ai-training.md): a machine's picture upload (its credentials, idempotent per item, only
// pictures), get samples as a job with progress and 9100 while one runs, the label rule in both languages,
// batch labelling with who labelled, and the training task rules: 9200, 9250, 9280, 9290, a new model name
// that differs from the basic one, cancel. On PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceSampleJobs } from '../../server/ai/samples';
import { aiPicture, aiSampleJob, aiTrainingTask } from '../../server/db/schema/aiTraining';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { issueCredential } from '../../server/gateway/credentials';
import { Random } from '../../server/seed/random';
import { drawItemPicture } from '../../server/simulator/itemPicture';
import { describeFleet } from './fleetSuite';
import { issueOf } from './answers';
import type { TestServer } from './helpers';

const TYPES = ['plasticBottle', 'can', 'glass'] as const;

const upload = (server: TestServer, auth: string, query: Record<string, string>, body: Buffer, type = 'image/png') =>
  server.app.inject({ method: 'PUT', url: `/test-api/gateway/picture?${new URLSearchParams(query)}`, headers: { authorization: auth, 'content-type': type }, payload: body });

describeFleet('AI training', (context) => {
  let server: TestServer;
  let token: string;
  let auth: string;
  let machineId: number;
  const ctx = context;
  beforeAll(async () => {
    server = context.server;
    token = context.token;
    const [root] = await server.db.insert(fleet).values({ licenseAccountId: ctx.accountId, name: 'AI fleet', level: 1 }).returning({ id: fleet.id });
    const [machine] = await server.db
      .insert(rvm)
      .values({ licenseAccountId: ctx.accountId, fleetId: root.id, termNo: 'AI001', serialNumber: `AI${Date.now().toString(36)}`, termType: 'H30' })
      .returning();
    machineId = machine.id;
    const secret = await issueCredential(server.db, machine, null);
    auth = `Basic ${Buffer.from(`${machine.serialNumber}:${secret}`).toString('base64')}`;
    // 30 pictures of three types: 10 sessions of 3 items
    const random = new Random('ai-test');
    for (let session = 0; session < 10; session++)
      for (let seq = 1; seq <= 3; seq++) {
        const answer = await upload(
          server,
          auth,
          {
            sessionId: `s${session}`,
            seq: String(seq),
            itemType: TYPES[seq - 1],
            confidence: seq === 3 ? '0.4' : '0.9',
            ...(seq === 3 ? { rejectReason: '4' } : {}),
            ts: new Date().toISOString(),
          },
          await drawItemPicture(() => random.next(), TYPES[seq - 1]),
        );
        expect(answer.json().resCode).toBe('00000');
      }
  });

  describe('picture upload', () => {
    it('stores each item once, refuses wrong credentials (8105) and what is no picture (9601)', async () => {
      const picture = await drawItemPicture(() => 0.5, 'can');
      const again = await upload(server, auth, { sessionId: 's0', seq: '1', itemType: 'can', ts: new Date().toISOString() }, picture);
      expect(again.json()).toMatchObject({ resCode: '00000', resData: { stored: false } });
      const wrong = await upload(
        server,
        `Basic ${Buffer.from('nobody:secret').toString('base64')}`,
        { sessionId: 'x', seq: '1', itemType: 'can', ts: new Date().toISOString() },
        picture,
      );
      expect([wrong.statusCode, wrong.json().resCode]).toEqual([401, '8105']);
      const text = await upload(server, auth, { sessionId: 'x', seq: '1', itemType: 'can', ts: new Date().toISOString() }, Buffer.from('not a picture at all'), 'image/png');
      expect(text.json().resCode).toBe('9601');
      expect((await server.db.select().from(aiPicture).where(eq(aiPicture.rvmId, machineId))).length).toBe(30);
    });
  });

  describe('get samples', () => {
    it('runs as a job with progress, answers 9100 while one runs, and filters by reject reason', async () => {
      const first = await server.call('POST', '/ai/sample/collect', { token, body: { rvmIds: [machineId], rejectReasons: [4] } });
      expect(first.body.resData).toMatchObject({ status: 'running', total: 10, processed: 0 });
      const second = await server.call('POST', '/ai/sample/collect', { token, body: {}, lang: 'zh' });
      expect([second.body.resCode, second.body.resMsg]).toEqual(['9100', expect.any(String)]);
      expect((await server.call('POST', '/ai/sample/collect', { token, body: {}, lang: 'en' })).body.resMsg).toBe('Getting sample in the progress');
      while (await advanceSampleJobs(server.db));
      const [job] = await server.db.select().from(aiSampleJob).where(eq(aiSampleJob.id, first.body.resData.id));
      expect(job).toMatchObject({ status: 'done', processed: 10, added: 10 });
      const all = await server.call('POST', '/ai/sample/collect', { token, body: { fleetIds: [] } });
      expect(all.body.resData.total).toBe(30);
      while (await advanceSampleJobs(server.db));
      const jobs = await server.call('GET', '/ai/sample/jobs', { token });
      expect(jobs.body.resData[0]).toMatchObject({ status: 'done', processed: 30, added: 20 });
    });
  });

  describe('labels', () => {
    it('takes names of digits, letters and underscores only, with the message in both languages', async () => {
      expect(issueOf(await server.call('POST', '/ai/label', { token, body: { name: 'pet bottle' }, lang: 'en' }))).toEqual({
        code: '1004',
        field: 'name',
        message: 'Label names may contain only digits, letters and underscores',
      });
      expect(issueOf(await server.call('POST', '/ai/label', { token, body: { name: 'pet-bottle' }, lang: 'zh' }))).toEqual({
        code: '1004',
        field: 'name',
        message: '标签名只能包含数字、字母和下划线',
      });
      const added = await server.call('POST', '/ai/label', { token, body: { name: 'pet_bottle_2' } });
      expect(added.body.resData).toEqual(['bottle', 'can', 'glass', 'cup', 'flat', 'others', 'pet_bottle_2']);
      expect((await server.call('POST', '/ai/label', { token, body: { name: 'pet_bottle_2' } })).body.resCode).toBe('2002');
    });

    it('labels a selection at once, keeps who labelled, and counts per label', async () => {
      const page = await server.call('GET', '/ai/sample/page?pageSize=100&unlabelled=true', { token });
      expect(page.body).toMatchObject({ resCode: '00000', resData: { total: 30 } });
      const byType = (type: string) => page.body.resData.list.filter((row: { itemType: string }) => row.itemType === type).map((row: { id: number }) => row.id);
      for (const [type, label] of [
        ['plasticBottle', 'bottle'],
        ['can', 'can'],
        ['glass', 'glass'],
      ])
        expect((await server.call('PUT', '/ai/sample/label', { token, body: { ids: byType(type), label } })).body.resData.updated).toBe(10);
      const labels = await server.call('GET', '/ai/label', { token });
      expect(labels.body.resData.counts).toEqual([
        { label: 'bottle', samples: 10 },
        { label: 'can', samples: 10 },
        { label: 'glass', samples: 10 },
      ]);
      const labelled = await server.call('GET', '/ai/sample/page?label=can&pageSize=1', { token });
      expect(labelled.body.resData.list[0]).toMatchObject({ label: 'can', labelledBy: 'admin' });
      expect(issueOf(await server.call('PUT', '/ai/sample/label', { token, body: { ids: byType('can'), label: 'no such' } }))).toMatchObject({ code: '1004', field: 'label' });
    });
  });

  describe('training tasks', () => {
    const task = { basicModel: 'none', newModelName: 'sorter_v2', taskType: 'classification' };
    it('needs a new model name that differs from the basic one, in both languages', async () => {
      expect(issueOf(await server.call('POST', '/ai/training-task', { token, body: { ...task, newModelName: 'none' }, lang: 'en' }))).toEqual({
        code: '1004',
        field: 'newModelName',
        message: 'The new model name must differ from the current one',
      });
      expect(issueOf(await server.call('POST', '/ai/training-task', { token, body: { ...task, newModelName: 'none' }, lang: 'zh' })).message).toBe('新模型名称必须与当前模型不同');
    });

    it('answers 9200 for a motion model (no trainable resources) and 9280 while samples are being collected', async () => {
      expect((await server.call('POST', '/ai/training-task', { token, body: { ...task, taskType: 'motion' } })).body.resCode).toBe('9200');
      const running = await server.call('POST', '/ai/sample/collect', { token, body: { rvmIds: [machineId] } });
      expect((await server.call('POST', '/ai/training-task', { token, body: task })).body.resCode).toBe('9280');
      while (await advanceSampleJobs(server.db));
      expect(running.body.resCode).toBe('00000');
    });

    it('queues one task, answers 9250 for a second, 9290 while it is being cancelled, and cancels', async () => {
      const created = await server.call('POST', '/ai/training-task', { token, body: task });
      expect(created.body).toMatchObject({ resCode: '00000', resData: { status: 'queuing', newModelName: 'sorter_v2', epochs: 10 } });
      const second = await server.call('POST', '/ai/training-task', { token, body: { ...task, newModelName: 'sorter_v3' }, lang: 'en' });
      expect([second.body.resCode, second.body.resMsg]).toEqual(['9250', 'A task is in progress']);
      // a trainer took it: cancelling waits for the epoch to end
      await server.db.update(aiTrainingTask).set({ status: 'inProgress', heartbeatTime: new Date() }).where(eq(aiTrainingTask.id, created.body.resData.id));
      const cancel = await server.call('POST', `/ai/training-task/${created.body.resData.id}/cancel`, { token });
      expect(cancel.body.resData.status).toBe('canceling');
      expect((await server.call('POST', '/ai/training-task', { token, body: { ...task, newModelName: 'sorter_v3' } })).body.resCode).toBe('9290');
      expect((await server.call('POST', `/ai/training-task/${created.body.resData.id}/cancel`, { token })).body.resCode).toBe('5001');
      await server.db.update(aiTrainingTask).set({ status: 'canceled' }).where(eq(aiTrainingTask.id, created.body.resData.id));
      const queued = await server.call('POST', '/ai/training-task', { token, body: { ...task, newModelName: 'sorter_v3' } });
      expect((await server.call('POST', `/ai/training-task/${queued.body.resData.id}/cancel`, { token })).body.resData.status).toBe('canceled');
      const page = await server.call('GET', '/ai/training-task/page', { token });
      expect(page.body.resData.list.map((row: { status: string }) => row.status)).toEqual(['canceled', 'canceled']);
    });
  });
});

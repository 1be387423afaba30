// The training worker (docs/ai-training.md "Trainer") on a small pool: it claims the queued task once (a
// second claim finds nothing), trains on its thread with each epoch written to the task, evaluates on held-out
// samples and stores the model as an AI package that loads back and classifies; a task cancelled while it
// trains stops after the epoch and ends canceled, with no package.
import { readdirSync, readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { loadClassifier, predict } from '../../server/ai/classifier';
import { pictureInput } from '../../server/ai/pictureInput';
import { storePicture } from '../../server/ai/pictures';
import { advanceSampleJobs } from '../../server/ai/samples';
import { createTask } from '../../server/ai/tasks';
import { claimTask, runTask } from '../../server/ai/trainer';
import { aiSample, aiTrainingTask } from '../../server/db/schema/aiTraining';
import { deploymentPackage } from '../../server/db/schema/deployments';
import { uploadedFile } from '../../server/db/schema/files';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { Random } from '../../server/seed/random';
import { drawItemPicture } from '../../server/simulator/itemPicture';
import { describeFleetOneBackend } from './fleetSuite';

const PER_CLASS = 24;
/** The nice value server/ai/train.worker.ts gives its thread (written out: importing the worker file would run it). */
const TRAINING_NICE = 15;

/** This process's threads' nice values (Linux: field 19 of /proc/self/task/<tid>/stat). */
const threadNices = () => readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));

describeFleetOneBackend('AI trainer', (context) => {
  beforeAll(async () => {
    const { server, accountId, token } = context;
    const [root] = await server.db.insert(fleet).values({ licenseAccountId: accountId, name: 'Trainer fleet', level: 1 }).returning({ id: fleet.id });
    const [machine] = await server.db.insert(rvm).values({ licenseAccountId: accountId, fleetId: root.id, termNo: 'TR001', serialNumber: 'TRAINER1', termType: 'H30' }).returning();
    const random = new Random('trainer-test');
    const storage = server.app.services.fileStorage!;
    // two classes a small network tells apart in a few epochs: upright bottles and cans
    for (let index = 0; index < PER_CLASS * 2; index++) {
      const type = index % 2 ? 'can' : 'plasticBottle';
      const meta = { sessionId: `t${index}`, seq: 1, itemType: type, ts: new Date().toISOString() };
      await storePicture(server.db, storage, { rvmId: machine.id, licenseAccountId: accountId }, meta, await drawItemPicture(() => random.next(), type));
    }
    await server.call('POST', '/ai/sample/collect', { token, body: {} });
    while (await advanceSampleJobs(server.db));
    const samples = await server.call('GET', '/ai/sample/page?pageSize=100', { token });
    for (const [type, label] of [
      ['plasticBottle', 'bottle'],
      ['can', 'can'],
    ]) {
      const ids = samples.body.resData.list.filter((row: { itemType: string }) => row.itemType === type).map((row: { id: number }) => row.id);
      await server.call('PUT', '/ai/sample/label', { token, body: { ids, label } });
    }
  });

  it('trains a queued task once, writes its epochs, and stores a model that classifies', async () => {
    const { server, accountId } = context;
    const storage = server.app.services.fileStorage!;
    const task = await createTask(server.db, accountId, null, { basicModel: 'none', newModelName: 'small_v1', taskType: 'classification', epochs: 3 });
    const claimed = await claimTask(server.db, 'test-trainer');
    expect(claimed).toMatchObject({ id: task.id, status: 'inProgress', worker: 'test-trainer' });
    expect(await claimTask(server.db, 'another-trainer')).toBeNull();
    await runTask({ db: server.db, storage }, claimed!);
    const [done] = await server.db.select().from(aiTrainingTask).where(eq(aiTrainingTask.id, task.id));
    expect(done).toMatchObject({ status: 'executionSucceeded', labels: ['bottle', 'can'], trainCount: 38, testCount: 10, expectedRemainingSeconds: 0 });
    expect(done.progress.map((epoch) => epoch.epoch)).toEqual([1, 2, 3]);
    expect(done.confusion!.flat().reduce((sum, count) => sum + count, 0)).toBe(10);
    const [pkg] = await server.db.select().from(deploymentPackage).where(eq(deploymentPackage.id, done.packageId!));
    expect(pkg).toMatchObject({ name: 'small_v1', resourceType: 'ai', licenseAccountId: accountId });
    const [file] = await server.db.select().from(uploadedFile).where(eq(uploadedFile.id, pkg.file!));
    const chunks: Buffer[] = [];
    for await (const chunk of (await storage.get(file.storageKey))!) chunks.push(chunk as Buffer);
    // the file carries its held-out accuracy: simulated machines classify by it (docs/ai-training.md#simulated-machines-and-trained-models)
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toMatchObject({ format: 'rvm-ai-classifier', accuracy: done.accuracy });
    const model = await loadClassifier(Buffer.concat(chunks));
    expect(model.labels).toEqual(['bottle', 'can']);
    const guesses = predict(model.weights, [await pictureInput(await drawItemPicture(() => 0.3, 'can'))]);
    expect(guesses[0].confidence).toBeGreaterThan(0);
    expect(guesses[0].label === 0 || guesses[0].label === 1).toBe(true);
  }, 240_000);

  it('stops a task cancelled while it trains after the epoch: canceled, no package', async () => {
    const { server, accountId } = context;
    const storage = server.app.services.fileStorage!;
    const task = await createTask(server.db, accountId, null, { basicModel: 'small_v1', newModelName: 'small_v2', taskType: 'classification', epochs: 20 });
    const claimed = await claimTask(server.db, 'test-trainer');
    const running = runTask({ db: server.db, storage }, claimed!);
    // cancel as soon as the first epoch is written
    for (let tries = 0; tries < 600; tries++) {
      const [row] = await server.db.select().from(aiTrainingTask).where(eq(aiTrainingTask.id, task.id));
      if (row.progress.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // the training thread yields the cores to requests: on Linux it alone runs at a lower priority (a higher nice)
    if (process.platform === 'linux') expect(threadNices().filter((nice) => nice > 0)).toEqual([TRAINING_NICE]);
    await server.db.update(aiTrainingTask).set({ status: 'canceling' }).where(eq(aiTrainingTask.id, task.id));
    await running;
    const [row] = await server.db.select().from(aiTrainingTask).where(eq(aiTrainingTask.id, task.id));
    expect(row.status).toBe('canceled');
    expect(row.progress.length).toBeLessThan(20);
    expect(row.packageId).toBeNull();
    expect(await server.db.select().from(aiSample).where(eq(aiSample.licenseAccountId, accountId))).toHaveLength(PER_CLASS * 2);
  }, 240_000);
});

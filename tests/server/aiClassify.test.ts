// Image classification (docs/ai-training.md#image-classification) on PGlite and PostgreSQL: the confusion matrix
// over stored predictions on a small hand-built pool (the counts, precision and recall below are worked out by
// hand), the review's filters (wrong, low confidence, by true and predicted label), a correction through the
// labeling call moving a count, running a real model over the pool (every sample once), and the checks: the
// screen's permission (4003) and another account's model (2003).
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeClassifier, trainClassifier } from '../../server/ai/classifier';
import { pictureInput } from '../../server/ai/pictureInput';
import { storePicture } from '../../server/ai/pictures';
import { advanceSampleJobs } from '../../server/ai/samples';
import { aiPicture, aiPrediction, aiSample, aiTrainingTask } from '../../server/db/schema/aiTraining';
import { deploymentPackage } from '../../server/db/schema/deployments';
import { uploadedFile } from '../../server/db/schema/files';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { Random } from '../../server/seed/random';
import { drawItemPicture } from '../../server/simulator/itemPicture';
import { accountNamed } from './fleetHarness';
import { describeFleet } from './fleetSuite';

/** [true label, model's label, confidence] of each predicted sample; null: an unlabelled sample. */
const CASE: ReadonlyArray<readonly [string | null, string, number]> = [
  ['bottle', 'bottle', 0.95],
  ['bottle', 'bottle', 0.9],
  ['bottle', 'bottle', 0.55],
  ['bottle', 'can', 0.7],
  ['can', 'can', 0.99],
  ['can', 'can', 0.8],
  ['can', 'bottle', 0.5],
  ['glass', 'glass', 0.85],
  ['glass', 'can', 0.4],
  [null, 'glass', 0.75],
];

describeFleet('AI image classification', (context) => {
  let packageId: number;
  let machineId: number;
  const sampleIds: number[] = [];

  /** A trained model's package of the account (task executionSucceeded), its file at `storageKey`. */
  const modelPackage = async (account: number, name: string, labels: string[], storageKey = `${account}/${name}`) => {
    const { server } = context;
    const [file] = await server.db
      .insert(uploadedFile)
      .values({ licenseAccountId: account, name: `${name}.json`, mimeType: 'application/json', size: 1, sha256: '0'.repeat(64), storageKey, saved: true })
      .returning();
    const [pkg] = await server.db
      .insert(deploymentPackage)
      .values({ licenseAccountId: account, name, resourceType: 'ai', version: '1.0.1', adaptedModels: 'H30', file: file.id })
      .returning();
    await server.db.insert(aiTrainingTask).values({
      licenseAccountId: account,
      basicModel: 'none',
      newModelName: name,
      taskType: 'classification',
      status: 'executionSucceeded',
      epochs: 1,
      labels,
      accuracy: 0.5,
      packageId: pkg.id,
    });
    return pkg.id;
  };

  beforeAll(async () => {
    const { server, accountId } = context;
    const [root] = await server.db.insert(fleet).values({ licenseAccountId: accountId, name: 'Classify fleet', level: 1 }).returning({ id: fleet.id });
    const [machine] = await server.db
      .insert(rvm)
      .values({ licenseAccountId: accountId, fleetId: root.id, termNo: 'CL001', serialNumber: 'CLASSIFY1', termType: 'H30' })
      .returning();
    machineId = machine.id;
    packageId = await modelPackage(accountId, 'hand_built', ['bottle', 'can', 'glass']);
    // one more labelled sample the model has not seen: in the pool, not in the matrix
    for (const [index, [label]] of [...CASE, ['bottle', '', 0] as const].entries()) {
      const [picture] = await server.db
        .insert(aiPicture)
        .values({ licenseAccountId: accountId, rvmId: machineId, sessionRef: `c${index}`, seq: 1, itemType: 'can', storageKey: `none/${index}`, size: 1, capturedTime: new Date() })
        .returning();
      const [sample] = await server.db.insert(aiSample).values({ licenseAccountId: accountId, pictureId: picture.id, label }).returning();
      sampleIds.push(sample.id);
    }
    await server.db
      .insert(aiPrediction)
      .values(CASE.map(([, predicted, confidence], index) => ({ licenseAccountId: accountId, packageId, sampleId: sampleIds[index], label: predicted, confidence })));
  });

  it('counts true label × predicted label, with precision and recall per label', async () => {
    const { server, token } = context;
    const answer = await server.call('GET', `/ai/classify/confusion?packageId=${packageId}`, { token });
    expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
    const confusion = answer.body.resData;
    expect(confusion.labels).toEqual(['bottle', 'can', 'glass']);
    expect(confusion.matrix).toEqual([
      [3, 1, 0],
      [1, 2, 0],
      [0, 1, 1],
    ]);
    expect(confusion).toMatchObject({ total: 9, correct: 6, pool: 11, predicted: 10 });
    expect(confusion.accuracy).toBeCloseTo(6 / 9, 6);
    const figures = Object.fromEntries(confusion.perLabel.map((row: { label: string }) => [row.label, row]));
    // bottle: 3 of the 4 called bottle are bottles, 3 of the 4 bottles called bottle
    expect(figures.bottle).toMatchObject({ support: 4, predicted: 4, precision: 0.75, recall: 0.75 });
    // can: 2 of the 4 called can, 2 of the 3 cans
    expect(figures.can).toMatchObject({ support: 3, predicted: 4, precision: 0.5 });
    expect(figures.can.recall).toBeCloseTo(2 / 3, 6);
    // glass: the 1 called glass (labelled) is glass, 1 of the 2 glasses
    expect(figures.glass).toMatchObject({ support: 2, predicted: 1, precision: 1, recall: 0.5 });
  });

  it('pages the review: wrong ones, low confidence lowest first, by true and predicted label', async () => {
    const { server, token } = context;
    const page = async (query: string) => (await server.call('GET', `/ai/classify/page?packageId=${packageId}&${query}`, { token })).body.resData;
    const all = await page('pageSize=50');
    expect(all.total).toBe(10);
    const wrong = await page('shown=wrong');
    expect(wrong.list.map((row: { label: string; predicted: string }) => `${row.label}>${row.predicted}`)).toEqual(['bottle>can', 'can>bottle', 'glass>can']);
    const low = await page('shown=lowConfidence');
    expect(low.list.map((row: { confidence: number }) => Number(row.confidence.toFixed(2)))).toEqual([0.4, 0.5, 0.55]);
    const cell = await page('label=can&predicted=bottle');
    expect(cell.list).toEqual([expect.objectContaining({ id: sampleIds[6], label: 'can', predicted: 'bottle', termNo: 'CL001' })]);
  });

  it('a correction made on the screen moves the count to its new row', async () => {
    const { server, token } = context;
    // the "can" the model called bottle is a bottle after all
    const corrected = await server.call('PUT', '/ai/sample/label', { token, body: { ids: [sampleIds[6]], label: 'bottle' } });
    expect(corrected.body.resCode).toBe('00000');
    const confusion = (await server.call('GET', `/ai/classify/confusion?packageId=${packageId}`, { token })).body.resData;
    expect(confusion.matrix).toEqual([
      [4, 1, 0],
      [0, 2, 0],
      [0, 1, 1],
    ]);
    await server.call('PUT', '/ai/sample/label', { token, body: { ids: [sampleIds[6]], label: 'can' } });
  });

  it("refuses callers without the screen's permission (4003) and another account's model (2003)", async () => {
    const { server, token } = context;
    await server.createUser({ name: 'nocls', email: 'nocls@example.com' });
    const other = await server.login('nocls', 'Passw0rd!');
    for (const [method, path] of [
      ['GET', '/ai/classify/models'],
      ['GET', `/ai/classify/confusion?packageId=${packageId}`],
      ['GET', `/ai/classify/page?packageId=${packageId}`],
      ['POST', '/ai/classify/run'],
    ] as const) {
      const answer = await server.call(method, path, { token: other, ...(method === 'POST' ? { body: { packageId } } : {}) });
      expect(answer.body.resCode, path).toBe('4003');
    }
    const foreign = await modelPackage(await accountNamed(server, 'Classify elsewhere'), 'foreign_model', ['bottle', 'can']);
    for (const path of [`/ai/classify/confusion?packageId=${foreign}`, `/ai/classify/page?packageId=${foreign}`])
      expect((await server.call('GET', path, { token })).body.resCode, path).toBe('2003');
    expect((await server.call('POST', '/ai/classify/run', { token, body: { packageId: foreign } })).body.resCode).toBe('2003');
    const models = (await server.call('GET', '/ai/classify/models', { token })).body.resData;
    expect(models.map((model: { packageId: number }) => model.packageId)).toEqual([packageId]);
  });

  describe('running a model', () => {
    it('predicts every pool sample with a picture once, on its thread', async () => {
      const { server, token, accountId } = context;
      const storage = server.app.services.fileStorage!;
      const random = new Random('classify-run');
      const inputs = [];
      for (let index = 0; index < 6; index++) {
        const type = index % 2 ? 'can' : 'plasticBottle';
        const bytes = await drawItemPicture(() => random.next(), type);
        inputs.push({ input: await pictureInput(bytes), label: index % 2 });
        await storePicture(
          server.db,
          storage,
          { rvmId: machineId, licenseAccountId: accountId },
          { sessionId: `run${index}`, seq: 1, itemType: type, ts: new Date().toISOString() },
          bytes,
        );
      }
      await server.call('POST', '/ai/sample/collect', { token, body: { rvmIds: [machineId] } });
      while (await advanceSampleJobs(server.db));
      const trained = await trainClassifier(inputs, { labels: ['bottle', 'can'], epochs: 1, holdOut: 0.2 });
      await storage.put(`${accountId}/run_model`, Readable.from([serializeClassifier(trained.weights, ['bottle', 'can'], { accuracy: trained.accuracy })]), 'application/json');
      const model = await modelPackage(accountId, 'run_model', ['bottle', 'can'], `${accountId}/run_model`);
      const first = await server.call('POST', '/ai/classify/run', { token, body: { packageId: model } });
      expect(first.body.resCode, first.body.resMsg).toBe('00000');
      // the 6 uploaded pictures; the 11 hand-built samples have no bytes and are left out
      expect(first.body.resData).toEqual({ predicted: 6, remaining: 0 });
      expect((await server.call('POST', '/ai/classify/run', { token, body: { packageId: model } })).body.resData).toEqual({ predicted: 0, remaining: 0 });
      const page = (await server.call('GET', `/ai/classify/page?packageId=${model}`, { token })).body.resData;
      expect(page.total).toBe(6);
      for (const row of page.list) {
        expect(['bottle', 'can']).toContain(row.predicted);
        expect(row.confidence).toBeGreaterThanOrEqual(0.5);
      }
    }, 120_000);
  });
});

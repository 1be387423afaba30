// Shared set-up of the delivery and download suites: machines with gateway secrets, packages uploaded
// through the API (the file route and the generic CRUD of the declaration), deployments written straight
// to the tables (creating them is the rollout suites' business), and MQTT machines that also read their
// deploy topic.
import { createHash, randomBytes } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { deployment, deploymentTarget } from '../../server/db/schema/deployments';
import { rvm } from '../../server/db/schema/fleet';
import { DEPLOY_TOPIC } from '../../server/gateway/protocol';
import { seedSmallFleet } from './fleetHarness';
import { connectMachine, provisionMachine, type TestMachine } from './gatewayHarness';
import type { TestServer } from './helpers';

export interface DeployMachine extends TestMachine {
  /** Deploy messages received on rvm/<serial>/down/deploy, in order. */
  deploys: Array<Record<string, any>>;
}

/** A machine connected over MQTT that subscribed to its deploy topic too. */
export const connectDeployMachine = async (url: string, serial: string, secret: string, id: number): Promise<DeployMachine> => {
  const machine = await connectMachine(url, serial, secret, id);
  const deploys: Array<Record<string, any>> = [];
  machine.client.on('message', (topic, payload) => {
    if (topic === DEPLOY_TOPIC(serial)) deploys.push(JSON.parse(payload.toString()));
  });
  await machine.client.subscribeAsync(DEPLOY_TOPIC(serial), { qos: 1 });
  return Object.assign(machine, { deploys });
};

export interface DeliveryFleet {
  token: string;
  account: number;
  /** H30 machines of the admin's account with their gateway secrets (offline at the start). */
  machines: Array<{ id: number; serial: string; secret: string }>;
}

export const setUpDeliveryFleet = async (server: TestServer, count: number): Promise<DeliveryFleet> => {
  const token = await server.login();
  const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId as number;
  await seedSmallFleet(server as never, account, { machines: count, days: 1 });
  const ids = (await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.licenseAccountId, account)).orderBy(asc(rvm.id))).map((row) => row.id);
  await server.db.update(rvm).set({ termType: 'H30', online: false, currentSts: 'Offline', softwareVersion: '1.0.0' }).where(inArray(rvm.id, ids));
  const machines = [];
  for (const id of ids) machines.push({ id, ...(await provisionMachine(server.db, id)) });
  return { token, account, machines };
};

/** Uploads `bytes` for a package file, then creates the package with it; answers its id and the file's hash. */
export const uploadPackage = async (
  server: TestServer,
  token: string,
  {
    name,
    resourceType = 'software',
    version = '2.0.0',
    bytes = randomBytes(4096),
    adaptedModels = 'H30',
  }: { name: string; resourceType?: string; version?: string; bytes?: Buffer; adaptedModels?: string },
) => {
  const file = await server.call('POST', `/file?resource=deploymentPackage&field=file&name=${encodeURIComponent(`${name}.bin`)}`, {
    token,
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (file.body.resCode !== '00000') throw new Error(`upload ${name}: ${file.body.resCode} ${file.body.resMsg}`);
  const created = await server.call('POST', '/package', { token, body: { name, resourceType, version, adaptedModels, file: file.body.resData.id } });
  if (created.body.resCode !== '00000') throw new Error(`package ${name}: ${created.body.resCode} ${created.body.resMsg}`);
  return { id: created.body.resData.id as number, fileId: file.body.resData.id as number, sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
};

/** A deployment of `packageId` to `rvmIds` (wave = position in `waves`, default all in wave 1); answers its id and target ids by machine. */
export const insertDeployment = async (
  server: TestServer,
  account: number,
  packageId: number,
  rvmIds: number[],
  {
    status = 'running',
    currentWave = 1,
    waves,
    answerWithinHours = 24,
    expiresInHours = 168,
  }: { status?: string; currentWave?: number; waves?: number[]; answerWithinHours?: number; expiresInHours?: number } = {},
) => {
  const [row] = await server.db
    .insert(deployment)
    .values({
      licenseAccountId: account,
      packageId,
      targets: { machineIds: rvmIds },
      waves: [100],
      status,
      currentWave,
      answerWithinHours,
      expiresTime: new Date(Date.now() + expiresInHours * 3_600_000),
    })
    .returning({ id: deployment.id });
  const targets = await server.db
    .insert(deploymentTarget)
    .values(rvmIds.map((rvmId, index) => ({ deploymentId: row.id, licenseAccountId: account, rvmId, wave: waves?.[index] ?? 1 })))
    .returning({ id: deploymentTarget.id, rvmId: deploymentTarget.rvmId });
  return { id: row.id, targetOf: new Map(targets.map((target) => [target.rvmId, target.id])) };
};

export const targetRow = async (server: TestServer, id: number) => (await server.db.select().from(deploymentTarget).where(eq(deploymentTarget.id, id)))[0];

/** Moves a delivery's times into the past, as if `hours` had gone by since it was issued. */
export const ageDelivery = (server: TestServer, id: number, hours: number) =>
  server.db
    .update(deploymentTarget)
    .set({ issuedTime: sql`${deploymentTarget.issuedTime} - make_interval(hours => ${hours})` })
    .where(eq(deploymentTarget.id, id));

// Shared set-up of the deployment suites: a fleet with a sub-fleet and known models, an inactive machine,
// another license account with its machine and package, packages (uploaded or not) written straight to
// the tables, and helpers that move targets as machines would (the gateway's part is tested elsewhere).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { deployment, deploymentPackage, deploymentTarget } from '../../server/db/schema/deployments';
import { uploadedFile } from '../../server/db/schema/files';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { accountNamed } from './fleetHarness';
import type { FleetContext } from './fleetSuite';
import type { TestServer } from './helpers';

export interface DeploymentFleet {
  rootFleet: number;
  childFleet: number;
  /** H30 machines: the first 8 in the root fleet, the next 8 in its sub-fleet. */
  h30: number[];
  /** S1 machines in the sub-fleet. */
  s1: number[];
  /** An H30 machine whose state is inactive. */
  inactive: number;
  otherAccount: number;
  foreignMachine: number;
  foreignPackage: number;
  /** An uploaded H30 package; another for H30 and S1; one without its file. */
  software: number;
  config: number;
  notUploaded: number;
}

let serial = 0;

/** A package row of `account` (with a stored file's row unless `uploaded` is false). */
export const createPackage = async (server: TestServer, account: number, { adaptedModels = 'H30', uploaded = true, resourceType = 'software' } = {}) => {
  serial++;
  const [file] = uploaded
    ? await server.db
        .insert(uploadedFile)
        .values({ licenseAccountId: account, name: `p${serial}.zip`, mimeType: 'application/zip', size: 10, sha256: 'a'.repeat(64), storageKey: `test/p${serial}` })
        .returning({ id: uploadedFile.id })
    : [undefined];
  const [row] = await server.db
    .insert(deploymentPackage)
    .values({ licenseAccountId: account, name: `package ${serial}`, resourceType, version: `1.${serial}`, adaptedModels, file: file?.id ?? null })
    .returning({ id: deploymentPackage.id });
  return row.id;
};

const machines = async (server: TestServer, account: number, fleetId: number, termType: string, count: number, prefix: string) => {
  const rows = Array.from({ length: count }, (_, index) => ({
    licenseAccountId: account,
    fleetId,
    termNo: `${prefix}${String(index + 1).padStart(3, '0')}`,
    serialNumber: `SN${prefix}${index + 1}`,
    termType,
  }));
  return (await server.db.insert(rvm).values(rows).returning({ id: rvm.id })).map((row) => row.id).sort((a, b) => a - b);
};

export const setUpDeploymentFleet = async ({ server, accountId }: FleetContext, target: DeploymentFleet) => {
  const [root] = await server.db.insert(fleet).values({ licenseAccountId: accountId, name: 'Deploy root', level: 1 }).returning({ id: fleet.id });
  const [child] = await server.db.insert(fleet).values({ licenseAccountId: accountId, name: 'Deploy child', level: 2, parentId: root.id }).returning({ id: fleet.id });
  const h30 = [...(await machines(server, accountId, root.id, 'H30', 8, 'DA')), ...(await machines(server, accountId, child.id, 'H30', 8, 'DB'))];
  const s1 = await machines(server, accountId, child.id, 'S1', 2, 'DS');
  const [inactive] = await machines(server, accountId, child.id, 'H30', 1, 'DI');
  await server.db.update(rvm).set({ sts: 'inactive' }).where(eq(rvm.id, inactive));
  const otherAccount = await accountNamed(server, 'Other deployer');
  const [otherFleet] = await server.db.insert(fleet).values({ licenseAccountId: otherAccount, name: 'Elsewhere', level: 1 }).returning({ id: fleet.id });
  const [foreignMachine] = await machines(server, otherAccount, otherFleet.id, 'H30', 1, 'DX');
  Object.assign(target, {
    rootFleet: root.id,
    childFleet: child.id,
    h30,
    s1,
    inactive,
    otherAccount,
    foreignMachine,
    foreignPackage: await createPackage(server, otherAccount),
    software: await createPackage(server, accountId),
    config: await createPackage(server, accountId, { adaptedModels: 'H30, S1', resourceType: 'configuration' }),
    notUploaded: await createPackage(server, accountId, { uploaded: false }),
  } satisfies DeploymentFleet);
};

export const targetsOf = (server: TestServer, deploymentId: number) =>
  server.db.select().from(deploymentTarget).where(eq(deploymentTarget.deploymentId, deploymentId)).orderBy(deploymentTarget.rvmId);

/** Moves the deployment's targets of `wave` (or those listed) to `status`, finished `minutesAgo` minutes ago when finished. */
export const moveTargets = async (
  server: TestServer,
  deploymentId: number,
  status: string,
  { wave, rvmIds, count, minutesAgo = 0 }: { wave?: number; rvmIds?: number[]; count?: number; minutesAgo?: number },
) => {
  const chosen = (await targetsOf(server, deploymentId)).filter((row) => (wave === undefined || row.wave === wave) && (!rvmIds || rvmIds.includes(row.rvmId))).slice(0, count);
  const finished = ['applied', 'applyFailed', 'receiveFailed', 'noFeedback', 'taskOverdue', 'voided'].includes(status);
  if (chosen.length === 0) return [];
  await server.db
    .update(deploymentTarget)
    .set({ status, finishedTime: finished ? sql`now() - make_interval(mins => ${minutesAgo})` : null, attempts: 1 })
    .where(
      inArray(
        deploymentTarget.id,
        chosen.map((row) => row.id),
      ),
    );
  return chosen.map((row) => row.rvmId);
};

export const deploymentRow = async (server: TestServer, id: number) => {
  const [row] = await server.db.select().from(deployment).where(eq(deployment.id, id));
  return row;
};

/** Deletes the suite's deployments of a package, so a test starts with none in flight. */
export const forgetDeployments = (server: TestServer, packageId: number) => server.db.delete(deployment).where(and(eq(deployment.packageId, packageId)));

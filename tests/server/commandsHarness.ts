// Shared set-up of the remote command suites: a small fleet with known models, another license
// account's machine, a recording gateway, and helpers to read commands straight from the table.
import { asc, eq, sql } from 'drizzle-orm';
import { rvm } from '../../server/db/schema/fleet';
import { rvmCommand } from '../../server/db/schema/liveFleet';
import { sysPermission } from '../../server/db/schema';
import type { Gateway } from '../../server/gateway/types';
import { accountNamed, seedSmallFleet } from './fleetHarness';
import type { FleetContext } from './fleetSuite';

export interface CommandFleet {
  /** Machines of the admin's account by role in the tests; each has the model named. */
  h30: number[];
  s1: number;
  m5: number;
  /** A machine of another license account. */
  foreign: number;
  otherAccount: number;
  /** rvmIds the recording gateway was asked to deliver to. */
  delivered: number[];
}

/** Records deliverPending calls (the real gateway would publish; commands stay as for an offline machine). */
export const recordingGateway = (delivered: number[]): Gateway => ({
  deliverPending: async (rvmId) => {
    delivered.push(rvmId);
  },
  connected: true,
  machineUrl: null,
  close: async () => undefined,
});

export const setUpCommandFleet = async ({ server, accountId }: FleetContext, fleet: CommandFleet) => {
  // One day, few machines: the suites need machines, not history.
  await seedSmallFleet(server, accountId, { machines: 8, days: 1 });
  const otherAccount = await accountNamed(server, 'Other operator');
  await seedSmallFleet(server, otherAccount, { machines: 1, days: 1 });
  const mine = await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.licenseAccountId, accountId)).orderBy(asc(rvm.id));
  const [foreign] = await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.licenseAccountId, otherAccount));
  const ids = mine.map((row) => row.id);
  const h30 = ids.slice(0, 6);
  // Models are set explicitly, so capabilities do not depend on the seed's random draw.
  await server.db
    .update(rvm)
    .set({ termType: 'H30' })
    .where(sql`${rvm.id} = any(${sql.param(h30)}::int[])`);
  await server.db.update(rvm).set({ termType: 'S1' }).where(eq(rvm.id, ids[6]));
  await server.db.update(rvm).set({ termType: 'M5' }).where(eq(rvm.id, ids[7]));
  Object.assign(fleet, { h30, s1: ids[6], m5: ids[7], foreign: foreign.id, otherAccount, delivered: [] });
  server.app.services.gateway = recordingGateway(fleet.delivered);
};

export const commandRow = async (context: FleetContext, id: number) => {
  const [row] = await context.server.db.select().from(rvmCommand).where(eq(rvmCommand.id, id));
  return row;
};

/** Moves a machine's commands into the past, as if the repeat interval had elapsed. */
export const ageCommands = (context: FleetContext, rvmId: number, seconds: number) =>
  context.server.db
    .update(rvmCommand)
    .set({ createdTime: sql`${rvmCommand.createdTime} - make_interval(secs => ${seconds})` })
    .where(eq(rvmCommand.rvmId, rvmId));

/** A user (name of 2..8 characters) whose only role holds `identifiers`; answers their token. */
export const userWith = async (context: FleetContext, name: string, identifiers: string[]) => {
  const { server, token } = context;
  const ids = identifiers.length
    ? (
        await server.db
          .select({ id: sysPermission.id })
          .from(sysPermission)
          .where(sql`${sysPermission.identifier} = any(${sql.param(identifiers)}::text[])`)
      ).map((row) => row.id)
    : [];
  const role = await server.call('POST', '/role', { token, body: { name: `role ${name}`, permissions: ids } });
  if (role.body.resCode !== '00000') throw new Error(`role ${name}: ${role.body.resMsg}`);
  await server.createUser({ name, roles: [role.body.resData.id] }, token);
  return server.login(name, 'Passw0rd!');
};

/** One block of a Server-Sent Events stream: its event name and JSON data, or a comment (`: keep-alive`). */
export interface StreamBlock {
  event?: string;
  data: any;
  comment?: string;
}

/** Splits the complete blocks off the text read so far; `rest` is the incomplete tail to read on from. */
export const takeStreamBlocks = (text: string): { blocks: StreamBlock[]; rest: string } => {
  const blocks: StreamBlock[] = [];
  let rest = text;
  for (let end = rest.indexOf('\n\n'); end >= 0; end = rest.indexOf('\n\n')) {
    const block = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const data = /^data: (.*)$/m.exec(block)?.[1];
    blocks.push({ event: /^event: (.*)$/m.exec(block)?.[1], data: data ? JSON.parse(data) : null, comment: block.startsWith(': ') ? block.slice(2) : undefined });
  }
  return { blocks, rest };
};

// The records the authorization matrix and the fuzzer aim at: two license accounts (the admin's
// "Default" one, A, and another operator's, B) each with a small fleet and one record of every kind
// a route can address, plus users of A: one holding every permission and, per distinct permission
// list of the routes, one holding every permission except those. Fixtures are written straight to
// the database (sessions by issueToken) so setting up costs no password hashing per user.
import { and, asc, eq, sql } from 'drizzle-orm';
import { identifierMatches } from '../../resources/permissions';
import { issueToken } from '../../server/auth/tokens';
import {
  consumerSession,
  fleet,
  licenseAccount,
  licenseAccountUserRelation,
  rvm,
  rvmCommand,
  rvmCommandBatch,
  rvmEvent,
  rvmFile,
  savedFilter,
  sysPermission,
  sysRole,
  sysRolePermission,
  sysToken,
  sysUser,
  sysUserRole,
  eventNotificationRule,
} from '../../server/db/schema';
import { seedDemoFleet } from '../../server/seed/demoFleet';
import type { TestServer } from '../server/helpers';
import type { Targets } from './requests';
import type { RouteInfo } from './routeTable';
import { signInAdmin, type Call } from './session';

/** Written into every record of account B that has a text column: an answer containing it served B's data. */
export const MARKER = 'FOREIGNZQX';

export interface World {
  accountA: number;
  accountB: number;
  adminId: number;
  admin: string;
  /** Records of account A (the callers' own; its saved filter is the admin's) and of account B (its saved filter a B user's). */
  home: Targets;
  foreign: Targets;
  /** A user of A holding every permission, not superAdmin. */
  full: string;
  fullId: number;
  /** Token of a user of A holding every permission except the route's (undefined for token-only and public routes). */
  lacking: (route: RouteInfo) => string | undefined;
  /** A fresh session of `userId` (e.g. to age or revoke it). */
  session: (userId: number) => Promise<{ token: string; tokenId: number }>;
}

export const callOf =
  (server: TestServer): Call =>
  async (method, path, options = {}) => {
    const answer = await server.call(method, path, { token: options.token, body: options.body });
    return { status: answer.status, body: answer.body };
  };

const permissionKey = (route: RouteInfo) => [...route.permissions].sort().join(' ');

export interface WorldOptions {
  fleet?: { machines: number; days: number };
  /** Create the users lacking each route's permissions (the matrix needs them, the fuzzer not). */
  lacking?: boolean;
}

export const buildWorld = async (server: TestServer, routes: RouteInfo[], options: WorldOptions = {}): Promise<World> => {
  const fleetSize = options.fleet ?? { machines: 3, days: 1 };
  const { db } = server;
  const { config, hasher } = server.app.services;
  const admin = (await signInAdmin(callOf(server))).token;
  const [adminRow] = await db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'admin'));
  const [{ accountA }] = await db
    .select({ accountA: licenseAccountUserRelation.licenseAccountId })
    .from(licenseAccountUserRelation)
    .where(and(eq(licenseAccountUserRelation.userId, adminRow.id), eq(licenseAccountUserRelation.isDefault, true)));
  const [{ accountB }] = await db
    .insert(licenseAccount)
    .values({ licenseAccountName: `${MARKER} operator` })
    .returning({ accountB: licenseAccount.id });
  const passwordHash = await hasher.hash('Matrix@123');
  const permissions = await db.select({ id: sysPermission.id, identifier: sysPermission.identifier }).from(sysPermission);

  let users = 0;
  const createUser = async (account: number, identifiers: string[] | null, realname = 'Matrix user') => {
    const name = `mx${(users++).toString(36)}`;
    const [user] = await db.insert(sysUser).values({ name, realname, password: passwordHash }).returning({ id: sysUser.id });
    await db.insert(licenseAccountUserRelation).values({ userId: user.id, licenseAccountId: account, isDefault: true });
    if (identifiers) {
      const [role] = await db
        .insert(sysRole)
        .values({ licenseAccountId: account, name: `${name} role` })
        .returning({ id: sysRole.id });
      const held = permissions.filter((permission) => identifiers.includes(permission.identifier));
      if (held.length) await db.insert(sysRolePermission).values(held.map((permission) => ({ roleId: role.id, permissionId: permission.id })));
      await db.insert(sysUserRole).values({ userId: user.id, roleId: role.id });
    }
    return user.id;
  };
  const session = async (userId: number) => {
    const token = await issueToken(db, config, userId);
    const [row] = await db
      .select({ id: sysToken.id })
      .from(sysToken)
      .where(eq(sysToken.userId, userId))
      .orderBy(sql`${sysToken.id} desc`)
      .limit(1);
    return { token, tokenId: row.id };
  };

  const recordsOf = async (account: number, owner: number, text: string): Promise<Targets> => {
    await seedDemoFleet(db, { ...fleetSize, seed: `matrix-${account}`, licenseAccountId: account, now: Date.now() });
    // The machine of the first consumer session, with an alarm of its own.
    const [session] = await db
      .select({ id: consumerSession.id, rvmId: consumerSession.rvmId })
      .from(consumerSession)
      .where(eq(consumerSession.licenseAccountId, account))
      .orderBy(asc(consumerSession.id))
      .limit(1);
    if (!session) throw new Error('the demo fleet seeded no consumer session');
    const [machine] = await db.select().from(rvm).where(eq(rvm.id, session.rvmId));
    const [event] = await db
      .insert(rvmEvent)
      .values({ licenseAccountId: account, rvmId: machine.id, code: 'am_code_PK_1', category: 'bin', severity: 'error', raisedTime: new Date() })
      .returning({ id: rvmEvent.id });
    const [{ id: fleetId }] = await db.select({ id: fleet.id }).from(fleet).where(eq(fleet.id, machine.fleetId));
    if (text) {
      await db
        .update(rvm)
        .set({ termNo: `${text}-${machine.id}`, address: text, note: text })
        .where(eq(rvm.id, machine.id));
      await db
        .update(fleet)
        .set({ name: `${text} fleet` })
        .where(eq(fleet.licenseAccountId, account));
      await db.update(rvmEvent).set({ detail: text }).where(eq(rvmEvent.rvmId, machine.id));
      await db.update(consumerSession).set({ voucherCode: text, userId: text }).where(eq(consumerSession.rvmId, machine.id));
    }
    const label = text || 'Matrix';
    const user = await createUser(account, [], `${label} victim`);
    const [role] = await db
      .insert(sysRole)
      .values({ licenseAccountId: account, name: `${label} role` })
      .returning({ id: sysRole.id });
    const [rule] = await db
      .insert(eventNotificationRule)
      .values({ licenseAccountId: account, name: `${label} rule`, alarmCodes: 'am_code_PK_1', recipients: 'ops@example.com' })
      .returning({ id: eventNotificationRule.id });
    const [batch] = await db
      .insert(rvmCommandBatch)
      .values({ licenseAccountId: account, command: 'restart', selection: { ids: [machine.id] }, machineCount: 1, createdByName: label })
      .returning({ id: rvmCommandBatch.id });
    const expiresTime = new Date(Date.now() + 24 * 3_600_000);
    const command = async (status: string) =>
      (
        await db
          .insert(rvmCommand)
          .values({ licenseAccountId: account, rvmId: machine.id, batchId: batch.id, command: 'restart', status, createdByName: label, expiresTime })
          .returning({ id: rvmCommand.id })
      )[0].id;
    const [file] = await db
      .insert(rvmFile)
      .values({ licenseAccountId: account, rvmId: machine.id, kind: 'logs', name: `${label}.log`, contentType: 'text/plain', size: 5, content: Buffer.from(label.slice(0, 5)) })
      .returning({ id: rvmFile.id });
    const [filter] = await db
      .insert(savedFilter)
      .values({ resource: 'user', name: `${label} filter`, filter: {}, visibility: 'personal', ownerId: owner, licenseAccountId: account })
      .returning({ id: savedFilter.id });
    return {
      user,
      role: role.id,
      fleet: fleetId,
      machine: machine.id,
      event: event.id,
      eventNotification: rule.id,
      command: await command('sendFailed'),
      pendingCommand: await command('notSent'),
      batch: batch.id,
      file: file.id,
      consumerSession: session.id,
      savedFilter: filter.id,
      licenseAccount: account,
      permission: permissions[0].id,
    };
  };

  const all = permissions.map((permission) => permission.identifier);
  const fullId = await createUser(accountA, all);
  const foreignOwner = await createUser(accountB, all, `${MARKER} owner`);
  const home = await recordsOf(accountA, adminRow.id, '');
  const foreign = await recordsOf(accountB, foreignOwner, MARKER);

  const lackingTokens = new Map<string, string>();
  for (const route of routes) {
    const key = permissionKey(route);
    if (options.lacking === false || route.public || !key || lackingTokens.has(key)) continue;
    const held = all.filter((identifier) => !route.permissions.some((required) => identifierMatches(identifier, required)));
    lackingTokens.set(key, (await session(await createUser(accountA, held))).token);
  }

  return {
    accountA,
    accountB,
    adminId: adminRow.id,
    admin,
    home,
    foreign,
    full: (await session(fullId)).token,
    fullId,
    lacking: (route) => lackingTokens.get(permissionKey(route)),
    session,
  };
};

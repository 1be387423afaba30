// Start-up seeding, run under the migration lock and idempotent: the permission tree is upserted
// on every start (rows matched by identifier: server/seed/permissionTree.ts); the "Default" license
// account and the `admin` superAdmin only when there is no user at all (first start); built-in
// saved filters are added when missing and their bodies kept as server/seed/builtInFilters.ts says.
import { and, count, eq, sql } from 'drizzle-orm';
import type { ResourceDeclaration } from '../../resources/types';
import type { PasswordHasher } from '../auth/passwords';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { licenseAccount, licenseAccountUserRelation, savedFilter, sysPermission, sysUser } from '../db/schema';
import { BUILT_IN_FILTERS } from './builtInFilters';
import { permissionTree, placeSeedRows } from './permissionTree';

export const DEFAULT_ACCOUNT_NAME = 'Default';
export const ADMIN_USER_NAME = 'admin';

export { BUILT_IN_FILTERS } from './builtInFilters';

export const seedPermissions = async (db: Db, declarations: readonly ResourceDeclaration[]) => {
  const stored = await db.select({ id: sysPermission.id, identifier: sysPermission.identifier }).from(sysPermission);
  const rows = placeSeedRows(permissionTree(declarations), stored);
  await db
    .insert(sysPermission)
    .values(rows)
    .onConflictDoUpdate({
      target: sysPermission.id,
      set: {
        name: sql`excluded.name`,
        parentId: sql`excluded.parent_id`,
        type: sql`excluded.type`,
        identifier: sql`excluded.identifier`,
        sort: sql`excluded.sort`,
      },
    });
};

const seedFirstStart = async (db: Db, config: ServerConfig, hasher: PasswordHasher) => {
  const [{ users }] = await db.select({ users: count() }).from(sysUser);
  if (users > 0) return;
  const password = await hasher.hash(config.adminInitialPassword);
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: licenseAccount.id }).from(licenseAccount).where(eq(licenseAccount.licenseAccountName, DEFAULT_ACCOUNT_NAME));
    const account = existing ?? (await tx.insert(licenseAccount).values({ licenseAccountName: DEFAULT_ACCOUNT_NAME }).returning({ id: licenseAccount.id }))[0];
    const [admin] = await tx
      .insert(sysUser)
      .values({ name: ADMIN_USER_NAME, realname: 'Administrator', password, superAdmin: true, mustChangePassword: true })
      .returning({ id: sysUser.id });
    await tx.insert(licenseAccountUserRelation).values({ userId: admin.id, licenseAccountId: account.id, isDefault: true });
  });
};

const seedBuiltInFilters = async (db: Db, declarations: readonly ResourceDeclaration[]) => {
  for (const builtIn of BUILT_IN_FILTERS) {
    if (!declarations.some((declaration) => declaration.name === builtIn.resource)) continue;
    const [found] = await db
      .select({ id: savedFilter.id })
      .from(savedFilter)
      .where(and(eq(savedFilter.builtIn, true), eq(savedFilter.resource, builtIn.resource), eq(savedFilter.name, builtIn.name)));
    // the body follows the code (a changed definition reaches existing installations)
    if (found) await db.update(savedFilter).set({ filter: builtIn.filter }).where(eq(savedFilter.id, found.id));
    else await db.insert(savedFilter).values({ ...builtIn, visibility: 'public', builtIn: true });
  }
};

export const seed = async (db: Db, config: ServerConfig, hasher: PasswordHasher, declarations: readonly ResourceDeclaration[]) => {
  await seedPermissions(db, declarations);
  await seedFirstStart(db, config, hasher);
  await seedBuiltInFilters(db, declarations);
};

// License accounts: a superAdmin sees all, anyone else the accounts they belong to; counts are
// computed in SQL (machines and fleets: 0 until their tables exist); an account in use is kept.
import { inArray, sql } from 'drizzle-orm';
import { licenseAccount, licenseAccountUserRelation as relation, sysRole } from '../db/schema';
import type { ResourceHooks } from '../crud/hooks';
import { AppError } from '../lib/errors';
import { linkUserToAccount } from './accounts';

export const accountHooks: ResourceHooks = {
  scope: (caller) =>
    caller.principal.superAdmin
      ? undefined
      : sql`exists (select 1 from ${relation} r where r.license_account_id = ${licenseAccount.id} and r.user_id = ${caller.userId})`,

  computed: () => ({
    userCount: sql<number>`(select count(*) from ${relation} r where r.license_account_id = ${licenseAccount.id})`.mapWith(Number),
    // Cast: a bare `0` in ORDER BY (sorting by these columns) would be read as a column position (500).
    machineCount: sql<number>`0::integer`.mapWith(Number),
    fleetCount: sql<number>`0::integer`.mapWith(Number),
  }),

  // The creator can see and switch to the account they created.
  afterCreate: async ({ tx, caller }, id) => linkUserToAccount(tx, caller.userId, id),

  beforeDelete: async ({ tx }, ids) => {
    const users = await tx.select({ id: relation.userId }).from(relation).where(inArray(relation.licenseAccountId, ids)).limit(1);
    const roles = await tx.select({ id: sysRole.id }).from(sysRole).where(inArray(sysRole.licenseAccountId, ids)).limit(1);
    if (users.length || roles.length) throw new AppError('5002');
  },
};

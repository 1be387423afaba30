// License accounts: a superAdmin sees all, anyone else the accounts they belong to; counts are
// computed in SQL (users, machines, fleets); an account in use is kept.
import { inArray, sql } from 'drizzle-orm';
import { fleet, licenseAccount, licenseAccountUserRelation as relation, rvm, sysRole } from '../db/schema';
import type { ResourceHooks } from '../crud/hooks';
import { AppError } from '../lib/errors';
import { linkUserToAccount } from './accounts';
import { outerColumn } from './outerColumn';

export const accountHooks: ResourceHooks = {
  scope: (caller) =>
    caller.principal.superAdmin ? undefined : sql`exists (select 1 from ${relation} r where r.license_account_id = ${licenseAccount.id} and r.user_id = ${caller.userId})`,

  computed: () => ({
    userCount: sql<number>`(select count(*) from ${relation} r where r.license_account_id = ${outerColumn(licenseAccount.id)})`.mapWith(Number),
    machineCount: sql<number>`(select count(*) from ${rvm} m where m.license_account_id = ${outerColumn(licenseAccount.id)})`.mapWith(Number),
    fleetCount: sql<number>`(select count(*) from ${fleet} f where f.license_account_id = ${outerColumn(licenseAccount.id)})`.mapWith(Number),
  }),

  // The creator can see and switch to the account they created.
  afterCreate: async ({ tx, caller }, id) => linkUserToAccount(tx, caller.userId, id),

  beforeDelete: async ({ tx }, ids) => {
    const users = await tx.select({ id: relation.userId }).from(relation).where(inArray(relation.licenseAccountId, ids)).limit(1);
    const roles = await tx.select({ id: sysRole.id }).from(sysRole).where(inArray(sysRole.licenseAccountId, ids)).limit(1);
    if (users.length || roles.length) throw new AppError('5002');
  },
};

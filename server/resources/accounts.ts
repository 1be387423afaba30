// License-account helpers shared by the user and account hooks and the license-account routes.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { licenseAccountUserRelation as relation } from '../db/schema';

/** Leaves the user with exactly one default license account when they have any. */
export const ensureDefaultAccount = async (tx: Db, userId: number) => {
  await tx
    .update(relation)
    .set({ isDefault: true })
    .where(
      and(
        eq(relation.userId, userId),
        sql`${relation.licenseAccountId} = (select min(r.license_account_id) from ${relation} r where r.user_id = ${userId})`,
        sql`not exists (select 1 from ${relation} r where r.user_id = ${userId} and r.is_default)`,
      ),
    );
};

/** Links a user to an account (not as default unless it is their only one). */
export const linkUserToAccount = async (tx: Db, userId: number, licenseAccountId: number) => {
  await tx.insert(relation).values({ userId, licenseAccountId, isDefault: false }).onConflictDoNothing();
  await ensureDefaultAccount(tx, userId);
};

// Promotion rules the declarations cannot say (docs/promotions.md#default-promotion): one default promotion per
// license account (a second one answers 9800: edit the existing one), and its update time follows every edit.
import { eq } from 'drizzle-orm';
import type { ResourceHooks } from '../crud/hooks';
import { defaultPromotion } from '../db/schema/promotions';
import { AppError } from '../lib/errors';

export const defaultPromotionHooks: ResourceHooks = {
  beforeCreate: async ({ tx, caller }) => {
    const account = caller.principal.licenseAccountId;
    if (account === null) return;
    // the unique index on the account is the guarantee; this names the rule before it fires
    const [existing] = await tx.select({ id: defaultPromotion.id }).from(defaultPromotion).where(eq(defaultPromotion.licenseAccountId, account)).limit(1);
    if (existing) throw new AppError('9800', { resData: { id: existing.id } });
  },
  beforeUpdate: async (_context, _id, _input, values) => {
    values.updateTime = new Date();
  },
};

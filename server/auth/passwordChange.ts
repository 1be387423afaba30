// Setting a password, wherever it happens (own change, reset link, administrator reset): new
// hash, expiry clock restarted, every session of the user revoked (11015), every open reset link void (4006),
// and the audit log's entry (docs/audit-log.md) in the same transaction.
import { and, eq, isNull } from 'drizzle-orm';
import { checkPassword } from '../../resources/validation';
import { recordPasswordSet, type PasswordAudit } from '../audit/security';
import type { Db } from '../db/client';
import { passwordReset, sysUser } from '../db/schema';
import { invalidField } from '../lib/errors';
import { revokeUserTokens, type RevokeReason } from './tokens';

/** The password rule (docs/product-rules.md#validation-rules), answered as 1001/1002/1004 with the rule's message on `field`. */
export const assertPasswordRule = (field: string, password: unknown) => {
  const message = checkPassword(password);
  if (!message) return;
  const code = message === 'validation.required' ? '1001' : message === 'validation.passwordLength' ? '1002' : '1004';
  throw invalidField(field, message, code);
};

export const setPassword = async (db: Db, userId: number, passwordHash: string, options: { mustChange: boolean; reason: RevokeReason; audit?: PasswordAudit }) =>
  db.transaction(async (tx) => {
    const [user] = await tx
      .update(sysUser)
      .set({ password: passwordHash, mustChangePassword: options.mustChange, passwordChangedAt: new Date() })
      .where(eq(sysUser.id, userId))
      .returning({ id: sysUser.id, name: sysUser.name });
    if (user && options.audit) await recordPasswordSet(tx, user, options.audit);
    await revokeUserTokens(tx, userId, options.reason);
    await tx
      .update(passwordReset)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordReset.userId, userId), isNull(passwordReset.usedAt)));
  });

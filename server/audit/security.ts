// Security events of the audit log (docs/audit-log.md "What is recorded"): failed sign-ins and passwords
// set. Successful sign-ins and sign-outs are plain `recordEvent` calls in server/session/login.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, licenseAccountUserRelation as relation } from '../db/schema';
import { auditActor, eventRow, recordEvent, type AuditActor, type AuditEvent } from './record';

export { auditActor };

/** The user's current license account (as server/auth/principal.ts currentLicenseAccount), inside the entry's insert. */
const currentAccountOf = (userId: number | null): SQL =>
  sql`(select ${relation.licenseAccountId} from ${relation} where ${relation.userId} = ${userId}
    order by ${relation.isDefault} desc, ${relation.licenseAccountId} asc limit 1)`;

/** An entry of a user who has no session here: it belongs to their current license account (none for an unknown name). */
const recordForUser = (db: Db, event: Omit<AuditEvent, 'licenseAccountId'>) =>
  db.insert(auditLog).values({ ...eventRow({ ...event, licenseAccountId: null }), licenseAccountId: currentAccountOf(event.userId) });

export type SignInFailure = 'unknownUser' | 'wrongPassword' | 'disabled';

/**
 * A sign-in refused after its password was checked, under the name tried. One statement whether the user
 * exists or not, so the answer's time tells nothing more than before. An unknown name's entry belongs to no
 * account (a superAdmin sees those). Attempts the throttle refuses before checking (codes 7 and 4029 up
 * front) are not entries: a flood would write the log.
 */
export const recordSignInFailure = async (db: Db, triedName: string, user: { id: number } | undefined, reason: SignInFailure, locked: boolean) => {
  await recordForUser(db, {
    userId: user?.id ?? null,
    userName: triedName,
    action: 'signIn',
    resource: 'user',
    recordId: user?.id ?? null,
    detail: { reason, ...(locked ? { locked: true } : {}) },
    outcome: 'failure',
  });
};

/** How a password was set; `by` absent: by the user themself without a session (a reset link). */
export interface PasswordAudit {
  action: 'passwordChange' | 'passwordReset' | 'passwordResetByLink';
  by?: AuditActor;
}

/** Recorded by setPassword (server/auth/passwordChange.ts) in its transaction; never the password or its hash. */
export const recordPasswordSet = async (tx: Db, user: { id: number; name: string }, audit: PasswordAudit) => {
  const event = { action: audit.action, resource: 'user', recordId: user.id, outcome: 'success' } as const;
  if (audit.by) await recordEvent(tx, { ...audit.by, ...event });
  else await recordForUser(tx, { userId: user.id, userName: user.name, ...event });
};

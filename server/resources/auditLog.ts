// The audit log screen (resources/auditLog.ts, docs/audit-log.md): the caller's license account, and for
// a superAdmin also the entries of no account (failed sign-ins with unknown user names), which no
// account's administrator may see. `details` joins a command's target and its detail as JSON text.
import { eq, isNull, or, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ResourceHooks } from '../crud/hooks';
import { auditLog } from '../db/schema';

export const auditLogHooks: ResourceHooks = {
  scope: (caller) => {
    const account = caller.principal.licenseAccountId;
    const own = account === null ? sql`false` : eq(auditLog.licenseAccountId, account);
    return caller.principal.superAdmin ? or(own, isNull(auditLog.licenseAccountId)) : own;
  },
  computed: (table: PgTable) => {
    const entries = table as typeof auditLog;
    return { details: sql<string>`nullif((${entries.target} || ${entries.detail})::text, '{}')` };
  },
};

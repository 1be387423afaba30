// Who sees a saved list filter (docs/ARCHITECTURE.md "Calls"): built-in ones everyone, personal ones
// their owner, public ones everyone in the owner's license account. The one rule every reader of saved
// filters uses (their routes, the dashboard's `savedFilterId`).
import { and, eq, or, sql } from 'drizzle-orm';
import type { Caller } from '../auth/principal';
import { savedFilter } from '../db/schema';

export const savedFilterVisibleTo = (caller: Caller) =>
  or(
    eq(savedFilter.builtIn, true),
    eq(savedFilter.ownerId, caller.userId),
    caller.principal.licenseAccountId === null ? sql`false` : and(eq(savedFilter.visibility, 'public'), eq(savedFilter.licenseAccountId, caller.principal.licenseAccountId)),
  );

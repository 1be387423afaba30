// Ban rules the declaration cannot say (docs/service-personnel.md#bans): one ban per consumer (kind and id) in a
// license account (2002 on consumerId; the unique index is the guarantee), a new ban that ends in the future
// (1004 on endTime), and the derived state: upcoming, active (in force now) or ended.
import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import { consumerBan } from '../db/schema/personnel';
import { AppError, invalidField } from '../lib/errors';

const checkUnique = async ({ tx, caller }: HookContext, kind: unknown, consumerId: unknown, except?: number) => {
  const account = caller.principal.licenseAccountId;
  if (typeof kind !== 'string' || typeof consumerId !== 'string' || account === null) return;
  const [found] = await tx
    .select({ id: consumerBan.id })
    .from(consumerBan)
    .where(
      and(
        eq(consumerBan.licenseAccountId, account),
        eq(consumerBan.consumerKind, kind),
        eq(consumerBan.consumerId, consumerId),
        except === undefined ? undefined : ne(consumerBan.id, except),
      ),
    )
    .limit(1);
  if (found) throw new AppError('2002', { issues: [{ field: 'consumerId', message: 'resources.consumerBan.validation.alreadyBanned' }] });
};

const endsInFuture = (input: Values) => {
  if (typeof input.endTime === 'string' && Date.parse(input.endTime) <= Date.now()) throw invalidField('endTime', 'resources.consumerBan.validation.endInPast');
};

export const consumerBanHooks: ResourceHooks = {
  computed: (_table: PgTable) => ({
    state: sql<string>`case when ${consumerBan.endTime} <= now() then 'ended' when ${consumerBan.startTime} > now() then 'upcoming' else 'active' end`,
  }),
  beforeCreate: async (context, input) => {
    endsInFuture(input);
    await checkUnique(context, input.consumerKind, input.consumerId);
  },
  beforeUpdate: async (context, id, input, _values, existing) => {
    if ('endTime' in input && input.endTime !== existing.endTime) endsInFuture(input);
    await checkUnique(context, input.consumerKind ?? existing.consumerKind, input.consumerId ?? existing.consumerId, id);
  },
};

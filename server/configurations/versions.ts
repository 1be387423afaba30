// Versions of machine configurations (docs/machine-configuration.md "Versions"): every committed write of a
// configuration kind's items keeps a snapshot of all of them in the writer's license account, in the write's
// own transaction (a rolled-back write keeps none; a write that changes nothing keeps none either). The hooks
// are the same for every kind; a kind's own rules come as hooks of their own, run first.
import { and, asc, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { diffConfigurations, sortItems, toContentItem, type ConfigurationItem, type ConfigurationKind } from '../../resources/machineConfiguration';
import type { Caller } from '../auth/principal';
import type { HookContext, ResourceHooks } from '../crud/hooks';
import { scopeCondition } from '../crud/query';
import type { Db } from '../db/client';
import { configurationVersion } from '../db/schema/machineConfiguration';
import { AppError } from '../lib/errors';

export type VersionRow = typeof configurationVersion.$inferSelect;

const accountOf = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('5001');
  return caller.principal.licenseAccountId;
};

/** The kind's items in the caller's account as a version holds them, less `leaving` (rows a delete removes). */
const currentItems = async ({ tx, caller, model }: HookContext, kind: ConfigurationKind, leaving: number[] = []): Promise<ConfigurationItem[]> => {
  const rows = (await tx
    .select()
    .from(model.table)
    .where(and(scopeCondition(model, caller), leaving.length ? notInArray(model.id, leaving) : undefined))) as Array<Record<string, unknown>>;
  // a multiReference's ids from its join table, ascending (written before the after-write hooks run)
  for (const [name, join] of Object.entries(model.joins)) {
    const ids = rows.map((row) => row.id as number);
    const links = ids.length ? await tx.select({ from: join.from, to: join.to }).from(join.table).where(inArray(join.from, ids)).orderBy(asc(join.to)) : [];
    for (const row of rows) row[name] = links.filter((link) => link.from === row.id).map((link) => link.to);
  }
  return sortItems(
    kind.declaration,
    rows.map((row) => toContentItem(kind.declaration, row)),
  );
};

export const latestVersion = async (db: Db, account: number, resource: string): Promise<VersionRow | undefined> =>
  (
    await db
      .select()
      .from(configurationVersion)
      .where(and(eq(configurationVersion.licenseAccountId, account), eq(configurationVersion.resource, resource)))
      .orderBy(desc(configurationVersion.version))
      .limit(1)
  )[0];

/** Keeps the items as the next version, unless they equal the latest one's. */
const keepVersion = async (context: HookContext, kind: ConfigurationKind, leaving?: number[]) => {
  const { tx, caller } = context;
  const account = accountOf(caller);
  const resource = kind.declaration.name;
  // one writer of this kind and account at a time numbers its version (released at commit)
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`configuration:${resource}`}), ${account})`);
  const items = await currentItems(context, kind, leaving);
  const latest = await latestVersion(tx, account, resource);
  if (latest) {
    const diff = diffConfigurations(kind.declaration, latest.items as ConfigurationItem[], items);
    if (!diff.added.length && !diff.removed.length && !diff.changed.length) return;
  }
  await tx.insert(configurationVersion).values({
    licenseAccountId: account,
    resource,
    version: (latest?.version ?? 0) + 1,
    items,
    itemCount: items.length,
    createdBy: caller.userId,
    createdByName: (caller.principal.realName || caller.principal.userName).slice(0, 64),
  });
};

/** The hooks of a configuration kind: its own (`own`, first) and the shared versioning and update time. */
export const configurationHooks = (kind: ConfigurationKind, own: ResourceHooks = {}): ResourceHooks => ({
  ...own,
  afterCreate: async (context, id, input) => {
    await own.afterCreate?.(context, id, input);
    await keepVersion(context, kind);
  },
  beforeUpdate: async (context, id, input, values, existing) => {
    await own.beforeUpdate?.(context, id, input, values, existing);
    values.updateTime = new Date();
  },
  afterUpdate: async (context, id, input, existing) => {
    await own.afterUpdate?.(context, id, input, existing);
    await keepVersion(context, kind);
  },
  beforeDelete: async (context, ids) => {
    await own.beforeDelete?.(context, ids);
    await keepVersion(context, kind, ids);
  },
});

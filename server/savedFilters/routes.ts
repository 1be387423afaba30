// Saved list filters (ARCHITECTURE.md "Calls"): personal ones for their owner, public ones for
// everyone in the owner's license account, built-in ones for all and read-only (5001).
import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import type { Caller } from '../auth/principal';
import { callerOf } from '../auth/guard';
import { savedFilter } from '../db/schema';
import type { Db } from '../db/client';
import { savedFilterVisibleTo } from './visibility';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { SAVED_FILTER_NAME_MAX } from '../../resources/savedFilters';
import { AppError, invalidField } from '../lib/errors';
import { AnyObject, RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import { TYPE_NAME_PATTERN } from '../../resources/configuredTypes';
import { resolveRelativeTimes } from './relativeTimes';
import { recordWrite } from '../audit/record';
import type { Services } from '../services';

type Row = typeof savedFilter.$inferSelect;

/** The audited fields of a saved filter (docs/audit-log.md), in the change's transaction. */
const AUDITED = ['resource', 'name', 'filter', 'visibility'] as const;
const audited = (row: Partial<Row>) => Object.fromEntries(AUDITED.filter((key) => row[key] !== undefined).map((key) => [key, row[key]]));
const audit = (caller: Caller, action: 'create' | 'update' | 'delete', row: Row, before?: Partial<Row>, after?: Partial<Row>) => ({
  caller,
  resource: 'savedFilter',
  action,
  recordId: row.id,
  before: before && audited(before),
  after: after && audited(after),
  secretFields: [],
});

const visibleTo = savedFilterVisibleTo;

const toWire =
  (caller: Caller, now = new Date()) =>
  (row: Row) => ({
    id: row.id,
    resource: row.resource,
    name: row.name,
    // built-in time filters are relative ("now-7d"): answered as the instant they mean now
    filter: resolveRelativeTimes((row.filter ?? {}) as Record<string, unknown>, now),
    visibility: row.visibility,
    builtIn: row.builtIn,
    ownerId: row.ownerId,
    mine: row.ownerId === caller.userId,
  });

const item = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    name: { type: 'string' },
    filter: { type: 'object', additionalProperties: true },
    visibility: { type: 'string', enum: ['personal', 'public'] },
    builtIn: { type: 'boolean' },
    ownerId: { type: ['integer', 'null'] },
    mine: { type: 'boolean' },
  },
};

export const registerSavedFilterRoutes = (app: TypedApp, { db, models, configuredTypes }: Services) => {
  const resources = [...models.keys()];
  const checkResource = (resource: string | undefined) => {
    if (resource !== undefined && !models.has(resource) && !configuredTypes?.active(resource)) throw invalidField('resource', 'validation.enum');
  };
  // a code-declared resource, or a configured type's name (checked against the active types below)
  const resource = Type.String({ anyOf: [{ enum: resources }, { pattern: TYPE_NAME_PATTERN, maxLength: 40 }] });
  // 1..40 characters, not only spaces (1002 for the length, 1004 for a blank name)
  const name = Type.String({ minLength: 1, maxLength: SAVED_FILTER_NAME_MAX, pattern: '\\S' });
  const filter = AnyObject({ additionalProperties: true });
  const visibility = StringEnum(['personal', 'public']);
  const createBody = StrictObject({ resource, name, filter, visibility });
  const changeBody = StrictObject(
    { id: RowId(), resource: Type.Optional(resource), name: Type.Optional(name), filter: Type.Optional(filter), visibility: Type.Optional(visibility) },
    // A change needs something to change besides the id (nothing to set is 1004, not a failed UPDATE).
    { minProperties: 2 },
  );
  const schema = <Extra extends FastifySchema>(summary: string, data: Record<string, unknown>, extra: Extra) => ({
    schema: { tags: ['saved filter'], summary, security: [{ rvmToken: [] }], ...extra, response: { 200: envelopeSchema(data), ...failureResponses(true) } },
  });

  /** The caller's own, changeable filter, else 2003 (not visible), 5001 (built-in) or 4003 (someone else's). */
  const ownFilter = async (caller: Caller, id: number, tx: Db = db) => {
    // locked in a change's transaction: the audit entry's before is what the change replaced
    const [row] = await tx
      .select()
      .from(savedFilter)
      .where(and(eq(savedFilter.id, id), visibleTo(caller)))
      .for('update');
    if (!row) throw new AppError('2003');
    if (row.builtIn) throw new AppError('5001');
    if (row.ownerId !== caller.userId) throw new AppError('4003');
    return row;
  };

  app.get(
    '/saved-filter',
    schema(
      'Saved filters I can use (built-in, mine, public ones of my license account)',
      { type: 'array', items: item },
      {
        querystring: Type.Object({ resource: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    ),
    async (request) => {
      const caller = callerOf(request);
      const { resource } = request.query;
      const rows = await db
        .select()
        .from(savedFilter)
        .where(and(visibleTo(caller), resource ? eq(savedFilter.resource, resource) : undefined))
        .orderBy(desc(savedFilter.builtIn), asc(savedFilter.name), asc(savedFilter.id));
      return ok(request, rows.map(toWire(caller)));
    },
  );

  app.post('/saved-filter', schema('Save a filter', item, { body: createBody }), async (request) => {
    const caller = callerOf(request);
    const input = request.body;
    checkResource(input.resource);
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(savedFilter)
        .values({ ...input, ownerId: caller.userId, licenseAccountId: caller.principal.licenseAccountId, builtIn: false })
        .returning();
      await recordWrite(tx, audit(caller, 'create', created, undefined, created));
      return created;
    });
    return ok(request, toWire(caller)(row));
  });

  app.put('/saved-filter', schema('Change one of my saved filters (built-in ones: 5001)', item, { body: changeBody }), async (request) => {
    const caller = callerOf(request);
    const { id, ...sent } = request.body;
    checkResource(sent.resource);
    // Only the changeable columns, named one by one (absent ones, undefined, are left as they are).
    const changes = { resource: sent.resource, name: sent.name, filter: sent.filter, visibility: sent.visibility };
    const row = await db.transaction(async (tx) => {
      const before = await ownFilter(caller, id, tx);
      const [changed] = await tx.update(savedFilter).set(changes).where(eq(savedFilter.id, id)).returning();
      await recordWrite(tx, audit(caller, 'update', changed, before, changes));
      return changed;
    });
    return ok(request, toWire(caller)(row));
  });

  app.delete(
    '/saved-filter',
    schema(
      'Delete one of my saved filters (built-in ones: 5001)',
      { type: 'null' },
      {
        querystring: Type.Object({ id: RowId() }),
      },
    ),
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.query;
      await db.transaction(async (tx) => {
        const row = await ownFilter(caller, id, tx);
        await tx.delete(savedFilter).where(eq(savedFilter.id, id));
        await recordWrite(tx, audit(caller, 'delete', row, row));
      });
      return ok(request, null);
    },
  );
};

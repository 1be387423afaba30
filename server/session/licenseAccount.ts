// The caller's license accounts and the switch of the default one (docs/product-rules.md#screens-and-routes, dialogs).
import { and, asc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { callerOf } from '../auth/guard';
import { licenseAccount, licenseAccountUserRelation as relation } from '../db/schema';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { RowId, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

const account = { type: 'object', properties: { id: { type: 'integer' }, licenseAccountName: { type: 'string' } } };

export const registerLicenseAccountRoutes = (app: TypedApp, { db }: Services) => {
  app.get(
    '/license-account-user-relation',
    {
      schema: {
        tags: ['license account'],
        summary: "The caller's license accounts; isDefault marks the current one",
        security: [{ rvmToken: [] }],
        response: {
          200: envelopeSchema({
            type: 'array',
            items: { type: 'object', properties: { ...account.properties, isDefault: { type: 'boolean' } } },
          }),
          ...failureResponses(true),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const rows = await db
        .select({ id: licenseAccount.id, licenseAccountName: licenseAccount.licenseAccountName, isDefault: relation.isDefault })
        .from(relation)
        .innerJoin(licenseAccount, eq(licenseAccount.id, relation.licenseAccountId))
        .where(eq(relation.userId, caller.userId))
        .orderBy(asc(licenseAccount.licenseAccountName), asc(licenseAccount.id));
      // The current account (see principal.ts) is the default one, or the oldest link when none is flagged.
      const current = caller.principal.licenseAccountId;
      return ok(
        request,
        rows.map((row) => ({ ...row, isDefault: row.id === current })),
      );
    },
  );

  app.put(
    '/license-account-user-relation',
    {
      schema: {
        tags: ['license account'],
        summary: 'Make one of my license accounts the default (current) one; any other id answers 2003',
        security: [{ rvmToken: [] }],
        querystring: Type.Object({ id: RowId() }),
        response: { 200: envelopeSchema(account), ...failureResponses(true) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.query;
      const chosen = await db.transaction(async (tx) => {
        const [mine] = await tx
          .select({ id: licenseAccount.id, licenseAccountName: licenseAccount.licenseAccountName })
          .from(relation)
          .innerJoin(licenseAccount, eq(licenseAccount.id, relation.licenseAccountId))
          .where(and(eq(relation.userId, caller.userId), eq(relation.licenseAccountId, id)));
        if (!mine) throw new AppError('2003');
        await tx.update(relation).set({ isDefault: false }).where(eq(relation.userId, caller.userId));
        await tx
          .update(relation)
          .set({ isDefault: true })
          .where(and(eq(relation.userId, caller.userId), eq(relation.licenseAccountId, id)));
        return mine;
      });
      return ok(request, chosen);
    },
  );
};

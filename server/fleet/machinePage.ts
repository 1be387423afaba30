// The machine page's Overview and ProfileSetting tabs. Overview answers in one call what the tab
// shows: identity with its fleet path, live status, bin fill levels, today's consumer figures, open
// alarms and the latest events. Profile reads and writes the declaration's fields through the CRUD
// engine (same validation and hooks as PUT /rvm) but answers 6001 for a machine that is not the caller's.
import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { findAlarm } from '../../resources/fleetCatalogue';
import { PROFILE_FIELDS } from '../../resources/machine';
import { callerOf } from '../auth/guard';
import type { ResourceModel } from '../crud/model';
import { readRecords } from '../crud/records';
import { valueSchema } from '../crud/schemas';
import { updateRecord } from '../crud/write';
import type { Db } from '../db/client';
import { rowsOf } from '../db/client';
import { rvmBin } from '../db/schema/fleet';
import { consumerSession, rvmEvent } from '../db/schema/fleetActivity';
import { ok } from '../lib/envelope';
import { invalidField } from '../lib/errors';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { findMachine, fleetRoute, iso, MACHINE_ID, PERMISSIONS, type MachineRow } from './access';

const DAY = 86_400_000;

export const eventToWire = (row: typeof rvmEvent.$inferSelect) => ({
  id: row.id,
  code: row.code,
  category: row.category,
  severity: row.severity,
  blocking: findAlarm(row.code)?.blocking ?? false,
  raisedTime: iso(row.raisedTime),
  clearedTime: iso(row.clearedTime),
  detail: row.detail,
});

/** The fleet and its ancestors, root first (for the breadcrumb "Kowloon > Sham Shui Po"). */
const fleetPath = async (db: Db, fleetId: number) =>
  rowsOf<{ id: number; name: string; level: number }>(
    await db.execute(sql`
      with recursive up(id, parent_id, name, level) as (
        select id, parent_id, name, level from fleet where id = ${fleetId}
        union all
        select f.id, f.parent_id, f.name, f.level from fleet f join up on f.id = up.parent_id
      ) select id, name, level from up order by level`),
  );

const binState = (machine: MachineRow, fill: number) => (fill >= (machine.binAlreadyFull ?? 100) ? 'full' : fill >= (machine.binAlmostFull ?? 80) ? 'almostFull' : 'ok');

const overview = async (db: Db, machine: MachineRow, dayStart: Date) => {
  const [path, bins, [today], openAlarms, lastEvents] = await Promise.all([
    fleetPath(db, machine.fleetId),
    db.select().from(rvmBin).where(eq(rvmBin.rvmId, machine.id)).orderBy(rvmBin.binNo),
    db
      .select({
        sessions: sql<number>`count(*)`.mapWith(Number),
        items: sql<number>`coalesce(sum(${consumerSession.itemCount}), 0)`.mapWith(Number),
        accepted: sql<number>`coalesce(sum(${consumerSession.acceptedCount}), 0)`.mapWith(Number),
        rejected: sql<number>`coalesce(sum(${consumerSession.rejectedCount}), 0)`.mapWith(Number),
        refund: sql<number>`coalesce(sum(${consumerSession.totalRefund}), 0)`.mapWith(Number),
      })
      .from(consumerSession)
      .where(and(eq(consumerSession.rvmId, machine.id), gte(consumerSession.startTime, dayStart))),
    db
      .select()
      .from(rvmEvent)
      .where(and(eq(rvmEvent.rvmId, machine.id), isNull(rvmEvent.clearedTime)))
      .orderBy(desc(rvmEvent.raisedTime))
      .limit(20),
    db.select().from(rvmEvent).where(eq(rvmEvent.rvmId, machine.id)).orderBy(desc(rvmEvent.raisedTime)).limit(10),
  ]);
  return {
    machine: {
      id: machine.id,
      termNo: machine.termNo,
      serialNumber: machine.serialNumber,
      termType: machine.termType,
      sts: machine.sts,
      currentSts: machine.currentSts,
      statusSince: iso(machine.statusSince),
      online: machine.online,
      fleetId: machine.fleetId,
      fleetPath: path,
      localAreaId: machine.localAreaId,
      address: machine.address,
      longitude: machine.longitude,
      latitude: machine.latitude,
      softwareVersion: machine.softwareVersion,
      macAddress: machine.macAddress,
      simNo: machine.simNo,
      installDate: machine.installDate,
      activationDate: machine.activationDate,
      onTime: machine.onTime,
      offTime: machine.offTime,
      lastSessionTime: iso(machine.lastSessionTime),
    },
    bins: bins.map((bin) => ({
      binNo: bin.binNo,
      itemType: bin.itemType,
      fillPercent: bin.fillPercent,
      currentHeight: bin.currentHeight,
      itemCount: bin.itemCount,
      lastEmptiedTime: iso(bin.lastEmptiedTime),
      state: binState(machine, bin.fillPercent),
    })),
    today: {
      from: dayStart.toISOString(),
      ...today,
      refund: Math.round(today.refund * 100) / 100,
      rejectRate: today.items ? Math.round((today.rejected / today.items) * 1000) / 1000 : 0,
    },
    openAlarms: openAlarms.map(eventToWire),
    lastEvents: lastEvents.map(eventToWire),
  };
};

const machineModel = (services: Services): ResourceModel => {
  const model = services.models.get('machine');
  if (!model) throw new Error('The machine declaration (resources/machine.ts) is not registered');
  return model;
};

const nullable = (schema: Record<string, unknown>) =>
  Array.isArray(schema.enum) ? { ...schema, enum: [...(schema.enum as unknown[]), null] } : { ...schema, type: [schema.type as string, 'null'] };

export const registerMachinePageRoutes = (app: TypedApp, services: Services) => {
  const { db } = services;

  app.get(
    '/rvmpage/overview',
    fleetRoute('rvmpage', 'Overview tab: identity, status, bins, today, open alarms, last events', [PERMISSIONS.overview], {
      querystring: StrictObject({
        id: MACHINE_ID,
        dayStart: Type.Optional(Type.String({ maxLength: 40, description: "Start of the caller's today (ISO); default UTC midnight" })),
      }),
    }),
    async (request) => {
      const { query } = request;
      const machine = await findMachine(db, callerOf(request), query.id);
      const dayStart = query.dayStart ? new Date(Date.parse(query.dayStart)) : new Date(Math.floor(Date.now() / DAY) * DAY);
      if (Number.isNaN(dayStart.getTime())) throw invalidField('dayStart', 'validation.date', '1003');
      return ok(request, await overview(db, machine, dayStart));
    },
  );

  app.get(
    '/rvmpage/profile',
    fleetRoute('rvmpage', 'ProfileSetting tab: the machine record (resources/machine.ts fields)', [PERMISSIONS.profile, PERMISSIONS.machineEdit], {
      querystring: StrictObject({ id: MACHINE_ID }),
    }),
    async (request) => {
      const { id } = request.query;
      await findMachine(db, callerOf(request), id);
      const model = machineModel(services);
      const [record] = await readRecords(db, model, { where: eq(model.id, id), limit: 1 });
      return ok(request, record);
    },
  );

  const model = services.models.get('machine');
  // The fields' schemas come from the declaration (crud/schemas.ts); updateRecord checks their values.
  const profileFields = Object.fromEntries(
    PROFILE_FIELDS.map((name) => [name, Type.Optional(Type.Unsafe<unknown>(nullable(valueSchema(model?.declaration.fields[name] ?? { type: 'text' }, true))))]),
  );
  const profileBody = StrictObject({ id: MACHINE_ID, ...profileFields });
  app.put(
    '/rvmpage/profile',
    fleetRoute('rvmpage', 'Save the ProfileSetting tab (the machine record rules; absent fields keep their value; nothing changes on failure)', [PERMISSIONS.machineEdit], {
      body: profileBody,
    }),
    async (request) => {
      const caller = callerOf(request);
      const { body } = request;
      await findMachine(db, caller, body.id);
      const model = machineModel(services);
      await updateRecord(services, caller, model, body);
      const [record] = await readRecords(db, model, { where: eq(model.id, body.id), limit: 1 });
      return ok(request, record);
    },
  );
};

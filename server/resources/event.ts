// Alarm event list rules the declaration cannot say: the machine's number and fleet, the duration
// and the open flag are computed in SQL; the fleet filter includes sub-fleets (like the machine
// list's) and "open" uses the partial index of open alarms.
import { isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { machine } from '../../resources/machine';
import type { FilterDeclaration } from '../../resources/types';
import type { ResourceHooks } from '../crud/hooks';
import { rvm } from '../db/schema/fleet';
import { rvmEvent } from '../db/schema/fleetActivity';
import { machineFilter } from './machine';
import { outerColumn } from './outerColumn';

const MACHINE_FLEET_FILTER = machine.list.filters.find((filter) => filter.name === 'fleetId') as FilterDeclaration;

const eventFilter = (filter: FilterDeclaration, value: unknown): SQL | undefined => {
  if (filter.field === 'fleetId') {
    const machines = machineFilter(MACHINE_FLEET_FILTER, value);
    return machines && sql`${rvmEvent.rvmId} in (select ${rvm.id} from ${rvm} where ${machines})`;
  }
  if (filter.field === 'open' && typeof value === 'boolean') return value ? isNull(rvmEvent.clearedTime) : isNotNull(rvmEvent.clearedTime);
  return undefined;
};

export const eventHooks: ResourceHooks = {
  filter: eventFilter,
  computed: (table: PgTable) => {
    const events = table as typeof rvmEvent;
    return {
      termNo: sql<string>`(select ${rvm.termNo} from ${rvm} where ${rvm.id} = ${outerColumn(events.rvmId)})`,
      fleetId: sql<number>`(select ${rvm.fleetId} from ${rvm} where ${rvm.id} = ${outerColumn(events.rvmId)})`,
      duration: sql<number>`extract(epoch from coalesce(${events.clearedTime}, now()) - ${events.raisedTime})::int`,
      open: sql<boolean>`(${events.clearedTime} is null)`,
    };
  },
};

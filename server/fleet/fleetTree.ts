// GET /fleet/tree: the caller's whole fleet tree for the fleet management screen, each node with
// its own machines and the total including sub-fleets, and a status breakdown of those totals.
// Two small queries (fleets, machine counts grouped by fleet and status); the tree is built here.
import { and, asc, count, eq } from 'drizzle-orm';
import type { FleetNode } from '../../resources/fleet';
import { RVM_STATUSES, type RvmStatus } from '../../resources/fleetCatalogue';
import { callerOf } from '../auth/guard';
import { fleet, rvm } from '../db/schema/fleet';
import { ok } from '../lib/envelope';
import type { TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { fleetRoute, iso, PERMISSIONS } from './access';

const noStatuses = () => Object.fromEntries(RVM_STATUSES.map((status) => [status, 0])) as Record<RvmStatus, number>;

export const registerFleetTreeRoutes = (app: TypedApp, { db }: Services) => {
  app.get(
    '/fleet/tree',
    fleetRoute('fleet', 'The fleet tree with machine counts (own and with sub-fleets, per status)', [PERMISSIONS.fleetPage, 'machine:page'], {}),
    async (request) => {
      const account = callerOf(request).principal.licenseAccountId;
      if (account === null) return ok(request, []);
      const [fleets, counts] = await Promise.all([
        db.select().from(fleet).where(eq(fleet.licenseAccountId, account)).orderBy(asc(fleet.level), asc(fleet.name)),
        db
          .select({ fleetId: rvm.fleetId, status: rvm.currentSts, machines: count() })
          .from(rvm)
          .where(and(eq(rvm.licenseAccountId, account)))
          .groupBy(rvm.fleetId, rvm.currentSts),
      ]);
      const nodes = new Map<number, FleetNode>(
        fleets.map((row) => [
          row.id,
          {
            id: row.id,
            name: row.name,
            level: row.level,
            parentId: row.parentId,
            createTime: iso(row.createTime),
            machineCount: 0,
            totalMachineCount: 0,
            statusCounts: noStatuses(),
            children: [],
          },
        ]),
      );
      const roots: FleetNode[] = [];
      for (const node of nodes.values()) {
        const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
        if (parent) parent.children.push(node);
        else roots.push(node);
      }
      for (const row of counts) {
        const own = nodes.get(row.fleetId);
        if (!own) continue;
        own.machineCount += Number(row.machines);
        // Every ancestor's total includes the machines of its sub-fleets.
        for (let node: FleetNode | undefined = own; node; node = node.parentId === null ? undefined : nodes.get(node.parentId)) {
          node.totalMachineCount += Number(row.machines);
          node.statusCounts[row.status as RvmStatus] = (node.statusCounts[row.status as RvmStatus] ?? 0) + Number(row.machines);
        }
      }
      return ok(request, roots);
    },
  );
};

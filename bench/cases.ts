// The calls the benchmark measures, with their parameters taken from the seeded data: machines
// spread over the fleet (a different one each run), the busiest machine, real voucher codes and
// user IDs. Time ranges end at the data's last session, so a reused fleet measures the same work.
import { sql } from 'drizzle-orm';
import type { Db } from '../server/db/client';
import { rowsOf } from '../server/db/client';
import { dashboardCases } from './dashboard';
import { performanceCases } from './performance';
import { reportCases } from './reports';

export interface BenchRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, unknown>;
}

export interface BenchCase {
  name: string;
  call: string;
  request(run: number): BenchRequest;
}

const DAY = 86_400_000;
const SAMPLE = 40;

export const benchCases = async (db: Db): Promise<BenchCase[]> => {
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
  const machines = (await rows<{ id: number; serial: string }>(sql`select id, serial_number as serial from rvm order by id`)).filter(
    (_, index, all) => index % Math.max(1, Math.floor(all.length / SAMPLE)) === 0,
  );
  const [busiest] = await rows<{ id: number }>(sql`select rvm_id as id from rvm_daily_usage group by rvm_id order by sum(sessions) desc limit 1`);
  const [{ last }] = await rows<{ last: string }>(sql`select max(start_time) as last from consumer_session where rvm_id = ${busiest.id}`);
  const end = new Date(last).getTime() + 60_000;
  const range = (days: number) => ({ from: new Date(end - days * DAY).toISOString(), to: new Date(end).toISOString() });
  const [region] = await rows<{ id: number }>(sql`select id from fleet where parent_id is null order by name limit 1`);
  const fleetIds = [region.id, ...(await rows<{ id: number }>(sql`select id from fleet where parent_id = ${region.id}`)).map((row) => row.id)];
  const sessions = await rows<{ id: number; voucher: string | null; userId: string | null }>(
    sql`select id, voucher_code as voucher, user_id as "userId" from consumer_session where rvm_id = ${busiest.id} order by start_time desc limit 200`,
  );
  const voucher = sessions.find((row) => row.voucher)!.voucher!;
  const userId = sessions.find((row) => row.userId)!.userId!;
  const machineOf = (run: number) => machines[(run + SAMPLE) % machines.length].id;
  const list =
    (body: Record<string, unknown>): BenchCase['request'] =>
    () => ({ method: 'POST', url: '/rvm/page', body: { pageNum: 1, pageSize: 20, ...body } });
  const tab =
    (path: string, body: (run: number) => Record<string, unknown>): BenchCase['request'] =>
    (run) => ({ method: 'POST', url: path, body: body(run) });

  return [
    { name: 'Machine list, default sort', call: 'POST /rvm/page', request: list({}) },
    { name: 'Machine list, status Down, newest first', call: 'POST /rvm/page', request: list({ currentSts: 'Down', sort: 'statusSince', order: 'DESC' }) },
    { name: 'Machine list, model + software version', call: 'POST /rvm/page', request: list({ termType: 'T9', softwareVersion: '5.1.0', sort: 'address' }) },
    { name: 'Machine list, fleet with sub-fleets', call: 'POST /rvm/page', request: list({ fleetId: fleetIds }) },
    { name: 'Machine list, address contains, page 5', call: 'POST /rvm/page', request: list({ addressLike: 'Nathan', pageNum: 5 }) },
    {
      name: 'Machine list, operator, by last session, page 50',
      call: 'POST /rvm/page',
      request: list({ localAreaId: 'EcoReturn HK', sort: 'lastSessionTime', order: 'DESC', pageNum: 50 }),
    },
    { name: 'Fleet tree with counts', call: 'GET /fleet/tree', request: () => ({ method: 'GET', url: '/fleet/tree' }) },
    {
      name: 'Overview tab',
      call: 'GET /rvmpage/overview',
      request: (run) => ({ method: 'GET', url: `/rvmpage/overview?id=${machineOf(run)}&dayStart=${encodeURIComponent(new Date(end - DAY).toISOString())}` }),
    },
    { name: 'ProfileSetting tab (read)', call: 'GET /rvmpage/profile', request: (run) => ({ method: 'GET', url: `/rvmpage/profile?id=${machineOf(run)}` }) },
    { name: 'StatusHistory, 7 days', call: 'POST /rvmpage/statusHistory', request: tab('/rvmpage/statusHistory', (run) => ({ id: machineOf(run), ...range(7) })) },
    {
      name: 'StatusHistory, 90 days, page 3',
      call: 'POST /rvmpage/statusHistory',
      request: tab('/rvmpage/statusHistory', (run) => ({ id: machineOf(run), ...range(90), pageNum: 3 })),
    },
    {
      name: 'OnlineOfflineHistory, 90 days',
      call: 'POST /rvmpage/onlineOfflineHistory',
      request: tab('/rvmpage/onlineOfflineHistory', (run) => ({ id: machineOf(run), ...range(90) })),
    },
    { name: 'ServiceSessions, 90 days', call: 'POST /rvmpage/serviceSessions', request: tab('/rvmpage/serviceSessions', (run) => ({ id: machineOf(run), ...range(90) })) },
    { name: 'EventHistory, 30 days', call: 'POST /rvmpage/eventHistory', request: tab('/rvmpage/eventHistory', (run) => ({ id: machineOf(run), ...range(30) })) },
    {
      name: 'EventHistory, 90 days, open only',
      call: 'POST /rvmpage/eventHistory',
      request: tab('/rvmpage/eventHistory', (run) => ({ id: machineOf(run), ...range(90), openOnly: true })),
    },
    { name: 'ConsumerSessions, 7 days', call: 'POST /rvmpage/consumerSessions', request: tab('/rvmpage/consumerSessions', (run) => ({ id: machineOf(run), ...range(7) })) },
    {
      name: 'ConsumerSessions, busiest RVM, 90 days, page 10 by refund',
      call: 'POST /rvmpage/consumerSessions',
      request: tab('/rvmpage/consumerSessions', () => ({ id: busiest.id, ...range(90), pageNum: 10, sort: 'totalRefund', order: 'DESC' })),
    },
    {
      name: 'Consumer session details',
      call: 'GET /rvmpage/consumerSessionDetails',
      request: (run) => ({ method: 'GET', url: `/rvmpage/consumerSessionDetails?id=${sessions[(run + 3) % sessions.length].id}` }),
    },
    { name: 'Search: serial number', call: 'GET /search', request: (run) => ({ method: 'GET', url: `/search?q=${machines[(run + 7) % machines.length].serial}` }) },
    { name: 'Search: voucher code', call: 'GET /search', request: () => ({ method: 'GET', url: `/search?q=${voucher}` }) },
    { name: 'Search: user ID', call: 'GET /search', request: () => ({ method: 'GET', url: `/search?q=${userId}` }) },
    { name: 'Search: address word', call: 'GET /search', request: () => ({ method: 'GET', url: '/search?q=Library' }) },
    { name: 'Quarantine list', call: 'POST /quarantine/page', request: () => ({ method: 'POST', url: '/quarantine/page', body: { pageNum: 1, pageSize: 20 } }) },
    // checked against a raw scan of the same numbers before any is measured (bench/dashboard.ts)
    ...(await dashboardCases(db)),
    // checked against a raw scan of the same numbers too (bench/performance.ts)
    ...(await performanceCases(db)),
    // the four reports, each checked against a raw scan first (bench/reports.ts)
    ...(await reportCases(db)),
  ];
};

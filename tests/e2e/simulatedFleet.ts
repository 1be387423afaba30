// A server with a small simulated fleet for the e2e files that deploy to machines (deployments, machine
// configuration, personnel and bans, promotions): machines that never fail a delivery, and a wait until each has
// said hello to the gateway (the demo fleet's other machines never connect).
import { api, FREE_PORT, startServer, type RunningServer } from './harness';

/** Starts the server with `count` simulated machines whose clocks run `speed` times real time. */
export const startWithSimulatedFleet = async (count: number, speed: number): Promise<RunningServer> =>
  startServer({
    MQTT_PORT: FREE_PORT,
    MQTT_HOST: '127.0.0.1',
    SIMULATE: String(count),
    SIMULATE_SPEED: String(speed),
    SIMULATE_DEPLOY_BROKEN: '0',
    SIMULATE_DEPLOY_CHECKSUM: '0',
    SIMULATE_DEPLOY_APPLY_FAILURE: '0',
    SIMULATE_DEPLOY_SILENT: '0',
  });

/** The machine list's rows of the `count` simulated machines, once every one has connected (at most 2 minutes). */
export const connectedMachines = async <Row extends { id: number }>(server: RunningServer, token: string, count: number): Promise<Row[]> => {
  const page = await api<{ list: Row[] }>(server, 'POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 100 } });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const states = await Promise.all(
      page.list.map(async (row) => ({ row, credential: await api<{ hasSecret: boolean; lastSeenTime: string | null }>(server, 'GET', `/rvm/${row.id}/credential`, { token }) })),
    );
    const connected = states.filter((state) => state.credential.hasSecret && state.credential.lastSeenTime).map((state) => state.row);
    if (connected.length >= count) return connected;
    if (Date.now() > deadline) throw new Error(`only ${connected.length} of ${count} simulated machines connected:\n${server.output().slice(-3000)}`);
    // the polling interval of a condition (have the machines said hello yet?)
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

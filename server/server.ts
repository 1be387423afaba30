// Starts the server from the environment (see config.ts): `npm start` / `tsx server/server.ts`.
import { mkdirSync } from 'node:fs';
import { buildApp } from './app';
import { settingsFromEnv } from './config';
import { startInProcessSimulation } from './simulator/inProcess';

const settings = settingsFromEnv();
if (!settings.databaseUrl) mkdirSync(settings.dataDir, { recursive: true });

const app = await buildApp({
  databaseUrl: settings.databaseUrl,
  dataDir: settings.databaseUrl ? undefined : settings.dataDir,
  config: settings.config,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
  staticDir: settings.staticDir,
  demoFleet: process.env.DEMO_FLEET !== '0',
  backgroundJobs: true,
  gateway: settings.gateway,
});

let simulation: { stop(): Promise<void> } | undefined;
let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    await simulation?.stop(); // the virtual machines say goodbye while the gateway still listens
    await app.close(); // closes the HTTP server, then the database (onClose hook)
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: settings.port, host: settings.host });
app.log.info(`RVM Console on http://${settings.host}:${settings.port}/ (API /test-api/, docs /test-api/docs) using ${app.services.database.kind}`);

if (settings.simulate.machines > 0) {
  if (!app.services.gateway.machineUrl) {
    app.log.error('the simulated fleet needs the machine gateway, which has no broker (see the MQTT line above): no machines are simulated');
  } else {
    simulation = await startInProcessSimulation(app, { ...settings.simulate, seed: 'demo' });
    app.log.info(`simulating ${settings.simulate.machines} machines of the demo fleet over ${app.services.gateway.machineUrl}`);
  }
}

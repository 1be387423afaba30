// Starts the server from the environment (see config.ts): `npm start` runs its bundle (dist-server/server.js,
// scripts/build.mjs), `npm run dev` this source through tsx.
import { buildApp } from './app';
import { settingsFromEnv } from './config';
import { prepareDataFolder } from './dataFolder';
import { DataFolderInUse, lockDataFolder } from './dataFolderLock';
import { compactAfterBulkLoad } from './seed/storage';
import { startInProcessSimulation } from './simulator/inProcess';
import { startTrainer } from './ai/trainer';

// Where start-up time goes (logged with the "RVM Console on" line; bench/startup.ts reads it).
const modulesLoadedAt = performance.now();
const settings = settingsFromEnv();
if (!settings.databaseUrl) {
  try {
    lockDataFolder(settings.dataDir); // released when the process exits
  } catch (error) {
    if (!(error instanceof DataFolderInUse)) throw error;
    console.error(`[start] ${error.message}`);
    process.exit(1);
  }
  prepareDataFolder(settings.dataDir);
}

const app = await buildApp({
  databaseUrl: settings.databaseUrl,
  dataDir: settings.databaseUrl ? undefined : settings.dataDir,
  config: settings.config,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
  staticDir: settings.staticDir,
  demoFleet: process.env.DEMO_FLEET !== '0',
  backgroundJobs: true,
  gateway: settings.gateway,
  progress: (step) => console.log(`[start] ${step}…`),
});

// The first start has just loaded the demo fleet: its write-ahead log can go (a no-op on later starts).
await compactAfterBulkLoad(app.services.database);
const appReadyAt = performance.now();

let simulation: { stop(): Promise<void> } | undefined;
// A training worker in this process (docs/ai-training.md "Trainer"): it trains on a thread of its own, so
// requests keep their pace; TRAINER=0 leaves training to `npm run trainer` processes.
const storage = app.services.fileStorage;
const trainer = process.env.TRAINER === '0' || !storage ? undefined : startTrainer({ db: app.services.db, storage, log: (line) => app.log.info({ trainer: true }, line) });
let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    await simulation?.stop(); // the virtual machines say goodbye while the gateway still listens
    await trainer?.stop(); // ends its training thread and puts its task back in the queue
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
const startup = { modulesMs: Math.round(modulesLoadedAt), appMs: Math.round(appReadyAt - modulesLoadedAt), listenMs: Math.round(performance.now() - appReadyAt) };
app.log.info({ startup }, `RVM Console on http://${settings.host}:${settings.port}/ (API /test-api/, docs /test-api/docs) using ${app.services.database.kind}`);

if (settings.simulate.machines > 0) {
  if (!app.services.gateway.machineUrl) {
    app.log.error('the simulated fleet needs the machine gateway, which has no broker (see the MQTT line above): no machines are simulated');
  } else {
    simulation = await startInProcessSimulation(app, { ...settings.simulate, seed: 'demo' });
    app.log.info(`simulating ${settings.simulate.machines} machines of the demo fleet over ${app.services.gateway.machineUrl}`);
  }
}

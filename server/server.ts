// Starts the server from the environment (see config.ts): `npm start` / `tsx server/server.ts`.
import { mkdirSync } from 'node:fs';
import { buildApp } from './app';
import { settingsFromEnv } from './config';

const settings = settingsFromEnv();
if (!settings.databaseUrl) mkdirSync(settings.dataDir, { recursive: true });

const app = await buildApp({
  databaseUrl: settings.databaseUrl,
  dataDir: settings.databaseUrl ? undefined : settings.dataDir,
  config: settings.config,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
  staticDir: settings.staticDir,
  demoFleet: process.env.DEMO_FLEET !== '0',
});

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
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

// `npm run trainer`: a training worker of its own (docs/ai-training.md "Trainer"). It shares the server's
// PostgreSQL database (DATABASE_URL) and file storage (DATA_DIR/files or FILES_S3_URL) and takes tasks from
// their queue; run as many as there are machines to train on. PGlite is one process's database: without
// DATABASE_URL the trainer inside `npm start` does the training.
import { settingsFromEnv } from '../config';
import { openDatabase } from '../db/client';
import { createFileStorage } from '../files/storage';
import { startTrainer } from './trainer';

const settings = settingsFromEnv();
if (!settings.databaseUrl) {
  console.error('[trainer] needs DATABASE_URL (PostgreSQL): with the built-in PGlite database, `npm start` trains in its own process');
  process.exit(2);
}
const database = await openDatabase({ databaseUrl: settings.databaseUrl });
const storage = await createFileStorage({ folder: settings.config.filesDir, s3Url: settings.config.filesS3Url });
const trainer = startTrainer({ db: database.db, storage, log: (line) => console.log(`[trainer] ${line}`) });
console.log(`[trainer] ${trainer.name} waiting for training tasks (${storage.description})`);
const stop = async () => {
  await trainer.stop();
  await storage.close();
  await database.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

// drizzle-kit: `npm run db:generate` writes SQL migrations from server/db/schema into
// server/db/migrations (committed; the server applies them at start under an advisory lock).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});

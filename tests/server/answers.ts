// Small readers shared by the server tests: the first issue of a refused answer, and a stored file's bytes.
import { eq } from 'drizzle-orm';
import { uploadedFile } from '../../server/db/schema';
import type { TestServer } from './helpers';

/** The code and the first issue (field, message) of an answer. */
export const issueOf = (answer: { body: { resCode: string; resData: any } }) => ({
  code: answer.body.resCode,
  field: answer.body.resData?.issues?.[0]?.field,
  message: answer.body.resData?.issues?.[0]?.message,
});

/** An uploaded file's bytes as text, read from the file storage. */
export const readStoredText = async (server: TestServer, fileId: number) => {
  const [file] = await server.db.select().from(uploadedFile).where(eq(uploadedFile.id, fileId));
  const chunks: Buffer[] = [];
  for await (const chunk of (await server.app.services.fileStorage!.get(file.storageKey))!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** An uploaded JSON file (a configuration package's content), parsed. */
export const readStored = async (server: TestServer, fileId: number) => JSON.parse(await readStoredText(server, fileId));

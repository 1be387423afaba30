// Packages made from content the server holds (server/deployments/packageFromContent.ts, docs/deployments.md
// "Packages from content"): the bytes stored and saved, the package row, the engine's audit entry, all or
// nothing; the package fields' rules, the unique name (2002) and the permission (4003) as for an upload.
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { Caller, loadPrincipal } from '../../server/auth/principal';
import { auditLog } from '../../server/db/schema/liveFleet';
import { uploadedFile } from '../../server/db/schema/files';
import { packageFromContent } from '../../server/deployments/packageFromContent';
import { AppError } from '../../server/lib/errors';
import { describeOneBackend, type TestServer } from './helpers';

const callerOf = async (server: TestServer, userId: number) =>
  new Caller(server.db, server.app.services.config, await loadPrincipal(server.db, { id: 0, userId, utcOffsetMinutes: null }), 'en');

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

const readAll = async (server: TestServer, key: string) => {
  const stream = await server.app.services.fileStorage!.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

describeOneBackend('package from content', (server) => {
  let token: string;
  let adminId: number;
  const deps = () => ({ db: server.db, fileStorage: server.app.services.fileStorage, models: server.app.services.models, log: server.app.log });
  const files = async () => (await server.db.select({ n: count() }).from(uploadedFile))[0].n;

  beforeAll(async () => {
    token = await server.login();
    adminId = (await server.call('GET', '/login/current', { token })).body.resData.userId as number;
  });

  it('stores the bytes, the package and its audit entry; the package reads as uploaded', async () => {
    const content = JSON.stringify({ kind: 'refund', items: [{ itemType: 'PET', value: 0.25 }] });
    const row = await packageFromContent(deps(), await callerOf(server, adminId), {
      name: 'refund v1',
      resourceType: 'refund',
      version: 'r1',
      adaptedModels: 'H30',
      fileName: 'refund-1.json',
      content,
    });
    expect(row).toMatchObject({ name: 'refund v1', resourceType: 'refund', version: 'r1', creator: adminId });
    const [file] = await server.db.select().from(uploadedFile).where(eq(uploadedFile.id, row.file!));
    expect(file).toMatchObject({ saved: true, name: 'refund-1.json', size: Buffer.byteLength(content) });
    expect(await readAll(server, file.storageKey)).toBe(content);
    const shown = await server.call('GET', `/package/${row.id}`, { token });
    expect(shown.body.resData).toMatchObject({ name: 'refund v1', uploadStatus: 'uploaded', file: row.file });
    const [entry] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'deploymentPackage'), eq(auditLog.recordId, row.id)));
    expect(entry).toMatchObject({ action: 'create', userId: adminId, outcome: 'success' });
    expect(JSON.parse(entry.changes as string)).toMatchObject({ name: { after: 'refund v1' }, version: { after: 'r1' }, file: { after: row.file } });
  });

  it('refuses a name the account already has with 2002 naming it, and leaves no file behind', async () => {
    const before = await files();
    const error = await failure(
      packageFromContent(deps(), await callerOf(server, adminId), {
        name: 'refund v1',
        resourceType: 'refund',
        version: 'r2',
        adaptedModels: 'H30',
        fileName: 'x.json',
        content: '{}',
      }),
    );
    expect(error.code).toBe('2002');
    expect(error.issues?.[0].field).toBe('name');
    expect(await files()).toBe(before);
  });

  it('checks the package fields as the declaration does', async () => {
    const error = await failure(
      packageFromContent(deps(), await callerOf(server, adminId), {
        name: 'bad version',
        resourceType: 'refund',
        version: 'a b',
        adaptedModels: 'H30',
        fileName: 'x.json',
        content: '{}',
      }),
    );
    expect(error.code).toBe('1004');
    expect(error.issues?.[0].field).toBe('version');
  });

  it('needs the permission to add packages', async () => {
    const plain = await server.createUser({ name: 'nopkg' }, token);
    const error = await failure(
      packageFromContent(deps(), await callerOf(server, plain), {
        name: 'not mine',
        resourceType: 'refund',
        version: '1',
        adaptedModels: 'H30',
        fileName: 'x.json',
        content: '{}',
      }),
    );
    expect(error.code).toBe('4003');
  });
});

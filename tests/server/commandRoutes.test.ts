// The remote command routes at their edges (docs/machine-protocol.md "Commands", the API reference at
// /test-api/docs): what their OpenAPI entries say, a batch's selection as stored (ids once each, the
// resend's origin), how many machines a batch counts when some are another account's, the 10,000-machine
// cap of a filter at its edge, a batch's second page, a resend delivered at once, a cancel's audit row,
// and a machine's file name made safe for the download header. One backend: none of this differs between
// PGlite and PostgreSQL (docs/test-quality.md "One backend or both").
import { and, desc, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { translate } from '../../i18n';
import { BATCH_MAX_MACHINES } from '../../resources/commands';
import { claimPending, applyAck } from '../../server/commands/store';
import { fleet as fleetTable, rvm } from '../../server/db/schema/fleet';
import { auditLog, rvmCommand, rvmCommandBatch, rvmFile } from '../../server/db/schema/liveFleet';
import { ageCommands, setUpCommandFleet, type CommandFleet } from './commandsHarness';
import { describeFleetOneBackend, type FleetContext } from './fleetSuite';
import { documentedPaths, type DocumentedSchema } from './helpers';

const fleet = {} as CommandFleet;

const NEEDS = 'Needs one of: installation:rvmpage:RemoteControl (superAdmin passes).';
/** What each command route's OpenAPI entry says: summary, and the description where it adds to NEEDS. */
const SUMMARIES: Record<string, { summary: string; description?: string }> = {
  'post /rvm/command': {
    summary: 'Send a remote command to one machine: 8000 when its model lacks the command, 8001 when the same command went to it within COMMAND_REPEAT_SECONDS',
  },
  'post /rvm/command/page': { summary: 'Commands, newest first, filtered by machine, batch, status and command' },
  'post /rvm/command/{id}/resend': { summary: 'Send a failed or cancelled command again (a new command with resendOf); 5001 for other statuses' },
  'post /rvm/command/{id}/cancel': {
    summary: 'Cancel a command that has not finished (notSent, sending, sent); 5001 for other statuses. A later answer of the machine is ignored',
  },
  'get /rvm/file/{id}': {
    summary: "Download a file a machine uploaded (logs, diagnosis); 2003 when it is not the account's",
    description: `${NEEDS} Answers the bytes with their content type and file name.`,
  },
  'post /rvm/command/batch': {
    summary: `One command to many machines: ids (at most ${BATCH_MAX_MACHINES}) or the machine list's filter, exactly one of them. Machines refused (6001 not the account's, 8000, 8001) are listed, the others queued`,
  },
  'get /rvm/command/batch/{id}': { summary: 'A batch: what was sent, how many commands are in each status, and its commands (paged, optionally one status)' },
  'post /rvm/command/batch/{id}/resendFailed': {
    summary: "Send the batch's failed commands (sendFailed, executedFailed; not resent yet) again, as a new batch; answers like batch creation",
  },
  'get /rvm/command/stream': { summary: 'Live changes of commands (Server-Sent Events), optionally of one machine or one batch' },
  'post /audit-log/page': { summary: 'Audit log of operator actions, newest first; rvmId: entries about that machine, action: exact (e.g. command.restart, command.cancel)' },
};

/** A schema's properties one level down, each as its type (and format): what a dropped or emptied schema object changes. */
const typesOf = (schema: DocumentedSchema | undefined) =>
  Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([name, property]) => [name, [property.type, property.format].filter(Boolean).join(' ')]));

describeFleetOneBackend(
  'remote command routes at their edges',
  (context: FleetContext) => {
    const call = (method: 'GET' | 'POST', path: string, body?: unknown, lang?: string) => context.server.call(method, path, { token: context.token, body, lang });
    const batchRow = async (id: number) => (await context.server.db.select().from(rvmCommandBatch).where(eq(rvmCommandBatch.id, id)))[0];

    it('documents every command route in the API reference: its words, token, answers and shapes', async () => {
      const paths = await documentedPaths(context.server.app);
      const operation = (key: string) => {
        const [method, path] = key.split(' ');
        return paths[`/test-api${path}`]?.[method];
      };
      for (const [key, words] of Object.entries(SUMMARIES)) {
        const entry = operation(key);
        expect(entry, key).toBeDefined();
        expect({ tags: entry.tags, summary: entry.summary, description: entry.description, security: entry.security, answers: Object.keys(entry.responses) }, key).toEqual({
          tags: ['commands'],
          summary: words.summary,
          description: words.description ?? expect.stringMatching(new RegExp(`^${NEEDS.replace(/[().]/g, '\\$&')}`)),
          security: [{ rvmToken: [] }],
          answers: ['200', '401', '4XX', '5XX'],
        });
      }
      const body = (key: string) => operation(key).requestBody?.content['application/json'].schema;
      const data = (key: string) => operation(key).responses['200'].content?.['application/json'].schema.properties?.resData;
      const pathId = [{ in: 'path', name: 'id', required: true, schema: { type: 'integer', minimum: 1 } }];

      expect(body('post /rvm/command')).toMatchObject({ required: ['rvmId', 'command'], additionalProperties: false });
      expect(typesOf(body('post /rvm/command'))).toEqual({ rvmId: 'integer', command: 'string', params: 'object' });
      expect(typesOf(body('post /rvm/command/page'))).toEqual({
        pageNum: 'integer',
        pageSize: 'integer',
        rvmId: 'integer',
        batchId: 'integer',
        status: 'string',
        command: 'string',
      });
      expect(body('post /rvm/command/page')?.properties?.batchId).toMatchObject({ minimum: 1 });
      expect(typesOf(data('post /rvm/command/page'))).toEqual({ list: 'array', total: 'integer', pageNum: 'integer', pageSize: 'integer' });
      expect(typesOf(data('post /rvm/command/page')?.properties?.list.items)).toMatchObject({ id: 'integer', rvmId: 'integer', command: 'string', status: 'string' });
      for (const key of ['post /rvm/command/{id}/resend', 'post /rvm/command/{id}/cancel', 'get /rvm/file/{id}', 'post /rvm/command/batch/{id}/resendFailed']) {
        expect(operation(key).parameters, key).toEqual(pathId);
      }
      expect(operation('get /rvm/file/{id}').responses['200'].content?.['application/json'].schema).toMatchObject({ type: 'string', format: 'binary' });

      // a batch: ids or the machine list's filter (without paging and sorting)
      expect(typesOf(body('post /rvm/command/batch'))).toEqual({ command: 'string', params: 'object', ids: 'array', filter: 'object' });
      expect(body('post /rvm/command/batch')?.properties?.ids).toMatchObject({ minItems: 1, maxItems: BATCH_MAX_MACHINES });
      const filter = body('post /rvm/command/batch')?.properties?.filter;
      expect(filter).toMatchObject({ description: 'The filters POST /rvm/page accepts (fleetId includes sub-fleets)', additionalProperties: false });
      expect(Object.keys(filter?.properties ?? {})).toEqual(expect.arrayContaining(['fleetId', 'termType', 'currentSts']));
      expect(Object.keys(filter?.properties ?? {})).not.toEqual(expect.arrayContaining(['pageNum']));
      expect(['pageSize', 'sort', 'order'].filter((name) => name in (filter?.properties ?? {}))).toEqual([]);
      expect(typesOf(data('post /rvm/command/batch'))).toEqual(typesOf(data('post /rvm/command/batch/{id}/resendFailed')));

      // a batch shown: its parameters, what was sent, counts by status, its commands
      const shown = operation('get /rvm/command/batch/{id}');
      expect(shown.parameters?.map((parameter) => [parameter.in, parameter.name, parameter.schema.type ?? 'string'])).toEqual([
        ['query', 'pageNum', 'integer'],
        ['query', 'pageSize', 'integer'],
        ['query', 'status', 'string'],
        ['path', 'id', 'integer'],
      ]);
      expect(typesOf(data('get /rvm/command/batch/{id}'))).toEqual({ batch: 'object', counts: 'object', list: 'array', total: 'integer' });
      expect(typesOf(data('get /rvm/command/batch/{id}')?.properties?.batch)).toEqual({
        id: 'integer',
        command: 'string',
        params: 'object',
        machineCount: 'integer',
        createdByName: 'string',
        createdTime: 'string date-time',
      });
      expect(data('get /rvm/command/batch/{id}')?.properties?.batch.properties?.params).toMatchObject({ additionalProperties: true });
      expect(Object.values(typesOf(data('get /rvm/command/batch/{id}')?.properties?.counts))).toEqual(Array(7).fill('integer'));
      expect(typesOf(data('get /rvm/command/batch/{id}')?.properties?.list.items)).toMatchObject({ id: 'integer', status: 'string' });
    });

    it('a batch names one way of choosing machines; its ids are stored once each; machines of another account count in its total', async () => {
      const neither = await call('POST', '/rvm/command/batch', { command: 'open' });
      expect([neither.body.resCode, neither.body.resData.issues]).toEqual(['1001', [{ field: 'ids', message: translate('en', 'validation.selectOne') }]]);
      const both = await call('POST', '/rvm/command/batch', { command: 'open', ids: [fleet.m5], filter: {} }, 'zh');
      expect([both.body.resCode, both.body.resData.issues]).toEqual(['1004', [{ field: 'filter', message: translate('zh', 'validation.invalid') }]]);

      const [first, second] = fleet.h30;
      for (const id of [first, second]) await ageCommands(context, id, 60);
      const chosen = await call('POST', '/rvm/command/batch', { command: 'uiServiceReset', ids: [second, first, second] });
      expect(chosen.body.resData).toMatchObject({ total: 2, queued: 2 });
      expect((await batchRow(chosen.body.resData.batchId)).selection).toEqual({ ids: [second, first] });

      // one machine of the account and one of another: two addressed, one refused (6001), one queued
      const mine = fleet.h30[2];
      await ageCommands(context, mine, 60);
      const mixed = await call('POST', '/rvm/command/batch', { command: 'uiServiceReset', ids: [mine, fleet.foreign] });
      expect(mixed.body.resData).toMatchObject({ batchId: expect.any(Number), total: 2, queued: 1, refused: [{ rvmId: fleet.foreign, code: '6001' }] });
    });

    it("shows a batch's second page; a resend of its failed commands remembers the batch it came from", async () => {
      const db = context.server.db;
      for (const id of fleet.h30) await ageCommands(context, id, 60);
      const created = await call('POST', '/rvm/command/batch', { command: 'uiCounterReset', ids: fleet.h30 });
      const { batchId } = created.body.resData;
      const page = async (pageNum: number) =>
        (await call('GET', `/rvm/command/batch/${batchId}?pageNum=${pageNum}&pageSize=4`)).body.resData.list.map((record: { id: number }) => record.id);
      const [one, two] = [await page(1), await page(2)];
      expect([one.length, two.length]).toEqual([4, fleet.h30.length - 4]);
      const all = (await call('GET', `/rvm/command/batch/${batchId}?pageSize=20`)).body.resData.list.map((record: { id: number }) => record.id);
      expect([...one, ...two]).toEqual(all);

      const failing = fleet.h30[1];
      const [failed] = await db
        .select()
        .from(rvmCommand)
        .where(and(eq(rvmCommand.batchId, batchId), eq(rvmCommand.rvmId, failing)));
      await claimPending(db, failing);
      await applyAck(db, failing, { commandId: failed.id, accepted: false, reason: 'busy' }, new Date());
      await ageCommands(context, failing, 60);
      const resent = await call('POST', `/rvm/command/batch/${batchId}/resendFailed`);
      expect(resent.body.resData).toMatchObject({ total: 1, queued: 1 });
      expect((await batchRow(resent.body.resData.batchId)).selection).toEqual({ resendOf: batchId });
    });

    it('a resent command is delivered at once; a cancel names its batch and command in the audit log, a single one no batch', async () => {
      const db = context.server.db;
      const machine = fleet.h30[3];
      await ageCommands(context, machine, 60);
      const sent = (await call('POST', '/rvm/command', { rvmId: machine, command: 'remoteDiagnosis' })).body.resData;
      const cancelled = await call('POST', `/rvm/command/${sent.id}/cancel`);
      expect(cancelled.body.resData).toMatchObject({ id: sent.id, status: 'cancelled' });
      const [single] = await db.select().from(auditLog).where(eq(auditLog.action, 'command.cancel')).orderBy(desc(auditLog.id)).limit(1);
      expect(single).toMatchObject({ target: { rvmIds: [machine], commandIds: [sent.id] }, detail: { command: 'remoteDiagnosis' } });
      expect(Object.keys(single.target as object)).not.toContain('batchId');

      await ageCommands(context, machine, 60);
      fleet.delivered.length = 0;
      const resent = await call('POST', `/rvm/command/${sent.id}/resend`);
      expect(resent.body.resData).toMatchObject({ resendOf: sent.id, rvmId: machine });
      expect(fleet.delivered).toEqual([machine]);

      await ageCommands(context, machine, 60);
      const batch = (await call('POST', '/rvm/command/batch', { command: 'open', ids: [machine] })).body.resData;
      const [inBatch] = await db.select().from(rvmCommand).where(eq(rvmCommand.batchId, batch.batchId));
      await call('POST', `/rvm/command/${inBatch.id}/cancel`);
      const [fromBatch] = await db.select().from(auditLog).where(eq(auditLog.action, 'command.cancel')).orderBy(desc(auditLog.id)).limit(1);
      expect(fromBatch).toMatchObject({ target: { rvmIds: [machine], batchId: batch.batchId, commandIds: [inBatch.id] }, detail: { command: 'open' } });
    });

    it("downloads a file under a header-safe name: other characters, quotes and backslashes become '_', the exact name in filename*", async () => {
      const name = 'résumé "2025"\\log.txt';
      const content = Buffer.from('boot ok\n');
      const [file] = await context.server.db
        .insert(rvmFile)
        .values({ licenseAccountId: context.accountId, rvmId: fleet.h30[4], kind: 'log', name, contentType: 'text/plain', size: content.length, content })
        .returning({ id: rvmFile.id });
      const answer = await call('GET', `/rvm/file/${file.id}`);
      expect(answer.raw.headers['content-disposition']).toBe(`attachment; filename="r_sum_ _2025__log.txt"; filename*=UTF-8''${encodeURIComponent(name)}`);
    });

    it(`refuses a filter that selects more than ${BATCH_MAX_MACHINES} machines (1004), and takes exactly ${BATCH_MAX_MACHINES}`, async () => {
      const db = context.server.db;
      const [bulk] = await db.insert(fleetTable).values({ licenseAccountId: context.accountId, name: 'Bulk' }).returning({ id: fleetTable.id });
      // S1 machines: the model lacks restartC750, so the accepted batch refuses each (8000) and queues nothing
      await db.execute(sql`
        insert into rvm (license_account_id, fleet_id, term_no, serial_number, term_type)
        select ${context.accountId}, ${bulk.id}, 'BULK' || n, 'BULK' || n, 'S1' from generate_series(1, ${BATCH_MAX_MACHINES + 1}) as n`);
      const over = await call('POST', '/rvm/command/batch', { command: 'restartC750', filter: { fleetId: [bulk.id] } });
      expect([over.body.resCode, over.body.resData.issues]).toEqual(['1004', [{ field: 'filter', message: translate('en', 'validation.max', { max: BATCH_MAX_MACHINES }) }]]);
      expect(await db.select().from(rvmCommandBatch).where(eq(rvmCommandBatch.command, 'restartC750'))).toEqual([]);

      await db.delete(rvm).where(eq(rvm.termNo, 'BULK1'));
      const exactly = await call('POST', '/rvm/command/batch', { command: 'restartC750', filter: { fleetId: [bulk.id] } });
      expect(exactly.body.resCode).toBe('00000');
      expect(exactly.body.resData).toMatchObject({ total: BATCH_MAX_MACHINES, queued: 0 });
      expect(exactly.body.resData.refused).toHaveLength(BATCH_MAX_MACHINES);
    });
  },
  (context) => setUpCommandFleet(context, fleet),
);

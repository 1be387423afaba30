// CommandRecord: a command as the API answers it (docs/ARCHITECTURE.md "Remote commands"), with the
// machine's termNo, and its JSON schema for the OpenAPI document.
import { desc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import { COMMAND_STATUSES, REMOTE_COMMANDS, type CommandRecord } from '../../resources/commands';

export type { CommandRecord };
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { rvmCommand } from '../db/schema/liveFleet';
import { iso } from '../fleet/access';

type JsonSchema = Record<string, unknown>;

const { licenseAccountId: _account, ...commandColumns } = getTableColumns(rvmCommand);
export const COMMAND_SELECTION = { ...commandColumns, termNo: rvm.termNo };

type Row = { [K in keyof typeof commandColumns]: (typeof rvmCommand.$inferSelect)[K] } & { termNo: string };

export const toCommandRecord = (row: Row): CommandRecord => ({
  id: row.id,
  rvmId: row.rvmId,
  termNo: row.termNo,
  batchId: row.batchId,
  command: row.command,
  params: (row.params ?? {}) as Record<string, unknown>,
  status: row.status,
  statusReason: row.statusReason,
  result: row.result ?? null,
  fileId: row.fileId,
  createdBy: row.createdBy,
  createdByName: row.createdByName,
  createdTime: iso(row.createdTime) as string,
  expiresTime: iso(row.expiresTime) as string,
  sentTime: iso(row.sentTime),
  ackTime: iso(row.ackTime),
  finishedTime: iso(row.finishedTime),
  updatedTime: iso(row.updatedTime) as string,
  attempts: row.attempts,
  resendOf: row.resendOf,
});

/** Commands matching `where` (callers scope it to the account), newest first. */
export const readCommands = async (db: Db, where: SQL | undefined, page?: { limit: number; offset: number }): Promise<CommandRecord[]> => {
  let query = db
    .select(COMMAND_SELECTION)
    .from(rvmCommand)
    .innerJoin(rvm, eq(rvm.id, rvmCommand.rvmId))
    .where(where)
    .orderBy(desc(rvmCommand.createdTime), desc(rvmCommand.id))
    .$dynamic();
  if (page) query = query.limit(page.limit).offset(page.offset);
  return (await query).map(toCommandRecord);
};

const time = { type: 'string', format: 'date-time' } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;
const nullableId = { type: ['integer', 'null'] } as const;

export const commandRecordSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    rvmId: { type: 'integer' },
    termNo: { type: 'string' },
    batchId: nullableId,
    command: { type: 'string', enum: [...REMOTE_COMMANDS] },
    params: { type: 'object', additionalProperties: true },
    status: { type: 'string', enum: [...COMMAND_STATUSES] },
    statusReason: { type: ['string', 'null'], description: "expired, cancelled, the machine's refusal reason or result message" },
    result: { type: ['object', 'null'], additionalProperties: true, description: '{ success, message, fileId } once executed' },
    fileId: nullableId,
    createdBy: nullableId,
    createdByName: { type: ['string', 'null'] },
    createdTime: time,
    expiresTime: time,
    sentTime: nullableTime,
    ackTime: nullableTime,
    finishedTime: nullableTime,
    updatedTime: time,
    attempts: { type: 'integer' },
    resendOf: nullableId,
  },
};

export const refusalSchema: JsonSchema = {
  type: 'object',
  properties: {
    rvmId: { type: 'integer' },
    termNo: { type: ['string', 'null'] },
    code: { type: 'string', enum: ['6001', '8000', '8001'] },
    message: { type: 'string' },
  },
};

export const batchAnswerSchema: JsonSchema = {
  type: 'object',
  properties: {
    batchId: { type: ['integer', 'null'], description: 'null when no machine was addressed' },
    total: { type: 'integer', description: 'machines addressed' },
    queued: { type: 'integer', description: 'commands created' },
    refused: { type: 'array', items: refusalSchema },
  },
};

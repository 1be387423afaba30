// Answers of the remote command calls (server/commands/), date-times as the http client shows them
// ('yyyy-MM-dd HH:mm:ss', local). The stream's records are converted the same way (useCommandStream).

export type { CommandRecord } from '../../resources/commands';
import type { CommandRecord } from '../../resources/commands';

export interface CommandPage {
  list: CommandRecord[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface RefusedMachine {
  rvmId: number;
  termNo: string;
  code: string;
  message: string;
}

/** POST /rvm/command/batch and .../resendFailed. */
export interface BatchCreated {
  batchId: number;
  total: number;
  queued: number;
  refused: RefusedMachine[];
}

/** GET /rvm/command/batch/{id}. */
export interface BatchPage {
  batch: { id: number; command: string; params: Record<string, unknown> | null; machineCount: number; createdByName: string | null; createdTime: string | null };
  counts: Record<string, number>;
  list: CommandRecord[];
  total: number;
}

/** Permission of every remote command call (the machine page's RemoteControl tab). */
export const REMOTE_CONTROL_PERMISSION = 'installation:rvmpage:RemoteControl';

/**
 * Puts a stream update into a list: replaces the row with its id only when the update is not older
 * (events may overtake a page answer); `prepend` adds unknown ones at the top (newest first).
 */
export const mergeCommand = (rows: readonly CommandRecord[], update: CommandRecord, prepend: boolean): CommandRecord[] => {
  const index = rows.findIndex((row) => row.id === update.id);
  if (index === -1) return prepend ? [update, ...rows] : [...rows];
  const current = rows[index];
  if (current.updatedTime && update.updatedTime && update.updatedTime < current.updatedTime) return [...rows];
  const next = [...rows];
  next[index] = update;
  return next;
};

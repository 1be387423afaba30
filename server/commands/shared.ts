// What the remote control route modules share: the permission, the route options, the body pieces
// and the parameter check.
import { and, eq } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { REMOTE_COMMANDS, type RemoteCommand } from '../../resources/commands';
import { normalizeCommandParams, validateCommandParams } from '../../resources/commandParams';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { rvmCommand } from '../db/schema/liveFleet';
import { accountOf, fleetRoute } from '../fleet/access';
import { AppError, invalid } from '../lib/errors';
import { AnyObject, StringEnum } from '../lib/typedApp';
import { readCommands, type CommandRecord } from './records';

type JsonSchema = Record<string, unknown>;

/** resources/menu.ts: the machine page's RemoteControl tab. */
export const REMOTE_CONTROL = 'installation:rvmpage:RemoteControl';
export const COMMAND_PERMISSIONS = [REMOTE_CONTROL] as const;

/** Route options (permission, OpenAPI tag, envelope around `data`); `schema` types the handler's request. */
export const commandRoute = <Schema extends FastifySchema>(summary: string, schema: Schema, data: JsonSchema = {}) =>
  fleetRoute('commands', summary, COMMAND_PERMISSIONS, schema, data);

export const COMMAND_PROPERTY = StringEnum(REMOTE_COMMANDS);
export const PARAMS_PROPERTY = AnyObject({
  maxProperties: 20,
  description: 'Parameters of the command (resources/commands.ts COMMAND_PARAMS); their issues are named params.<name>',
});
export const ID_PARAMS = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** The validated parameters as the machine gets them, or the 1001..1004 failure with its issues. */
export const checkedParams = (command: RemoteCommand, params: Record<string, unknown> = {}) => {
  const issues = validateCommandParams(command, params);
  if (issues.length) throw invalid(issues);
  return normalizeCommandParams(command, params);
};

/** One of the account's commands, else 2003. */
export const commandOf = async (db: Db, account: number, id: number): Promise<CommandRecord> => {
  const [record] = await readCommands(db, and(eq(rvmCommand.id, id), eq(rvmCommand.licenseAccountId, account)));
  if (!record) throw new AppError('2003');
  return record;
};

/** Who acts, as commands and the audit log record it. */
export interface Actor {
  account: number;
  userId: number;
  userName: string;
  displayName: string;
}

export const actorOf = (caller: Caller): Actor => ({
  account: accountOf(caller),
  userId: caller.principal.userId,
  userName: caller.principal.userName,
  displayName: caller.principal.realName || caller.principal.userName,
});

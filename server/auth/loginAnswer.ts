// The LoginAnswer of ARCHITECTURE.md, also answered (without tokenInfo) by GET /login/current.
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { permissionsAndRolesOf, type PermissionItem, type Principal } from './principal';
import { TOKEN_NAME } from '../lib/envelope';

export interface LoginAnswer {
  accountName: string | null;
  licenseAccountId: number | null;
  /** ISO 4217 code of the current license account's refund values (null without an account). */
  currency: string | null;
  userId: number;
  realName: string;
  userName: string;
  tokenInfo?: { tokenName: string; tokenValue: string };
  userInfo: { superAdmin: boolean; permissions: PermissionItem[]; roleId: number | null; roleIds: number[] };
  termType: string[];
  firstLogin: boolean;
  passwordExpired: boolean;
  version: string;
}

export const passwordExpired = (config: ServerConfig, changedAt: Date) => Date.now() - changedAt.getTime() > config.passwordMaxAgeDays * 86_400_000;

/** Why the user must change their password before anything else (the 4007 `resData.reason`), or null. */
export type PasswordChangeReason = 'firstLogin' | 'passwordExpired';

export const passwordChangeReason = (config: ServerConfig, principal: Pick<Principal, 'mustChangePassword' | 'passwordChangedAt'>): PasswordChangeReason | null =>
  principal.mustChangePassword ? 'firstLogin' : passwordExpired(config, principal.passwordChangedAt) ? 'passwordExpired' : null;

export const buildLoginAnswer = async (db: Db, config: ServerConfig, principal: Principal, tokenValue?: string): Promise<LoginAnswer> => {
  // One round trip for both (GET /login/current is called on every console start and focus).
  const { permissions, roleIds } = await permissionsAndRolesOf(db, principal.userId, principal.licenseAccountId);
  return {
    accountName: principal.licenseAccountName,
    licenseAccountId: principal.licenseAccountId,
    currency: principal.licenseAccountCurrency,
    userId: principal.userId,
    realName: principal.realName,
    userName: principal.userName,
    ...(tokenValue ? { tokenInfo: { tokenName: TOKEN_NAME, tokenValue } } : {}),
    userInfo: { superAdmin: principal.superAdmin, permissions, roleId: roleIds[0] ?? null, roleIds },
    // Machine models of the fleet: none until the machine tables exist.
    termType: [],
    firstLogin: principal.mustChangePassword,
    passwordExpired: passwordExpired(config, principal.passwordChangedAt),
    version: config.version,
  };
};

const permissionItem = { type: 'object', properties: { id: { type: 'integer' }, identifier: { type: 'string' } } };

export const loginAnswerSchema = (withToken: boolean) => ({
  type: 'object',
  properties: {
    accountName: { type: ['string', 'null'] },
    licenseAccountId: { type: ['integer', 'null'] },
    currency: { type: ['string', 'null'], description: "ISO 4217 code of the current license account's refund values" },
    userId: { type: 'integer' },
    realName: { type: 'string' },
    userName: { type: 'string' },
    ...(withToken ? { tokenInfo: { type: 'object', properties: { tokenName: { type: 'string' }, tokenValue: { type: 'string' } } } } : {}),
    userInfo: {
      type: 'object',
      properties: {
        superAdmin: { type: 'boolean' },
        permissions: { type: 'array', items: permissionItem },
        roleId: { type: ['integer', 'null'] },
        roleIds: { type: 'array', items: { type: 'integer' } },
      },
    },
    termType: { type: 'array', items: { type: 'string' } },
    firstLogin: { type: 'boolean', description: 'The password must be changed (first sign-in or reset by an administrator)' },
    passwordExpired: { type: 'boolean', description: 'Older than PASSWORD_MAX_AGE_DAYS: the password must be changed' },
    version: { type: 'string' },
  },
});

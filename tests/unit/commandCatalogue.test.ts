// The remote command catalogue (resources/commands.ts) against what depends on it beyond the type
// check: the machine columns a `storesParams` command writes, and the labels in both languages (the
// console's buttons and descriptions, the audit log's action names derived from them).
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { COMMAND_GROUPS, COMMAND_PARAMS, COMMANDS, REMOTE_COMMANDS } from '../../resources/commands';
import { rvm } from '../../server/db/schema/fleet';

describe('the remote command catalogue', () => {
  it('names each command once, each in a group of the console', () => {
    expect(new Set(REMOTE_COMMANDS).size).toBe(REMOTE_COMMANDS.length);
    for (const entry of COMMANDS) expect(COMMAND_GROUPS, entry.name).toContain(entry.group);
  });

  it('lets a storesParams command write only machine columns of the same names (server/commands/store.ts)', () => {
    const columns = Object.keys(getTableColumns(rvm));
    const stored = COMMANDS.filter((entry) => entry.storesParams);
    expect(stored.map((entry) => entry.name)).toEqual(['setOnOffTime', 'binHeight']);
    for (const entry of stored) for (const name of Object.keys(COMMAND_PARAMS[entry.name].fields)) expect(columns, `${entry.name}.${name}`).toContain(name);
  });

  it('labels every command, its description and its audit action in both languages', () => {
    for (const locale of ['en', 'zh'] as const) {
      for (const name of REMOTE_COMMANDS) {
        for (const key of [`remote.commands.${name}`, `remote.descriptions.${name}`, `resources.auditLog.enums.action.command.${name}`]) {
          expect(translate(locale, key), `${locale} ${key}`).not.toBe(key);
        }
      }
    }
    expect(translate('en', 'resources.auditLog.enums.action.command.restartC750')).toBe('Command: restart C750');
    expect(translate('en', 'resources.auditLog.enums.action.command.uiServiceReset')).toBe('Command: UI service reset');
    expect(translate('zh', 'resources.auditLog.enums.action.command.binHeight')).toBe('远程命令：回收箱高度设置');
  });
});

// resources/commands.ts: which model takes which remote command, and the parameter rules the console
// form and the server share (docs/product-rules.md#catalogues actions,
// docs/product-rules.md#validation-rules bin and on/off rules).
import { describe, expect, it } from 'vitest';
import { COMMAND_PARAMS, COMMON_COMMANDS, REMOTE_COMMANDS, commandsOf, isRemoteCommand, supportsCommand } from '../../resources/commands';
import { normalizeCommandParams, validateCommandParams } from '../../resources/commandParams';

const WITHOUT_C750 = REMOTE_COMMANDS.filter((command) => command !== 'restartC750');
const VALID_BINS = { binEmptyHeight: 120, binFullHeight: 20, binAlmostFull: 80, binAlreadyFull: 90 };

describe('remote command catalogue', () => {
  it('recognises only the declared command names', () => {
    expect(isRemoteCommand('restart')).toBe(true);
    expect(isRemoteCommand('binHeight')).toBe(true);
    expect(isRemoteCommand('reboot')).toBe(false);
    expect(isRemoteCommand('')).toBe(false);
    expect(isRemoteCommand(null)).toBe(false);
  });

  it('gives every model but H30/T9 all commands except the C750 restart, and the S1 no bin height', () => {
    expect(COMMON_COMMANDS).toEqual(WITHOUT_C750);
    // in catalogue order (restartC750 before binHeight)
    expect(commandsOf('H30')).toEqual(REMOTE_COMMANDS);
    expect(commandsOf('T9')).toEqual(REMOTE_COMMANDS);
    expect(commandsOf('M5')).toEqual(WITHOUT_C750);
    expect(commandsOf('S1')).toEqual(WITHOUT_C750.filter((command) => command !== 'binHeight'));
    // an unknown model, including a name inherited from Object.prototype, gets the common set
    expect(commandsOf('X42')).toEqual(WITHOUT_C750);
    expect(commandsOf('toString')).toEqual(WITHOUT_C750);
  });

  it('supportsCommand needs a known command the model takes', () => {
    expect(supportsCommand('H30', 'restartC750')).toBe(true);
    expect(supportsCommand('M5', 'restartC750')).toBe(false);
    expect(supportsCommand('S1', 'binHeight')).toBe(false);
    expect(supportsCommand('S1', 'open')).toBe(true);
    expect(supportsCommand('H30', 'reboot')).toBe(false);
    expect(supportsCommand('unknownModel', 'binHeight')).toBe(true);
  });

  it("reuses the machine record's rules: on/off time only the after rule, bin height the two bin rules", () => {
    expect(COMMAND_PARAMS.setOnOffTime.rules).toEqual([{ kind: 'after', field: 'offTime', other: 'onTime', message: 'validation.endAfterStart' }]);
    expect(COMMAND_PARAMS.binHeight.rules?.map((rule) => rule.field)).toEqual(['binEmptyHeight', 'binAlmostFull']);
    expect(Object.keys(COMMAND_PARAMS.binHeight.fields)).toEqual(['binEmptyHeight', 'binFullHeight', 'binAlmostFull', 'binAlreadyFull']);
  });
});

describe('validateCommandParams', () => {
  it('refuses parameter names the command does not declare (1004), prefixed with params.', () => {
    expect(validateCommandParams('restart', {})).toEqual([]);
    expect(validateCommandParams('restart', { force: true })).toEqual([{ field: 'params.force', message: 'validation.unknownField', values: { field: 'force' }, code: '1004' }]);
    // a declared name is not unknown; the unknown ones come first
    expect(validateCommandParams('maintenance', { enabled: true, extra: 1 })).toEqual([
      { field: 'params.extra', message: 'validation.unknownField', values: { field: 'extra' }, code: '1004' },
    ]);
  });

  it('maintenance needs a boolean "enabled"', () => {
    expect(validateCommandParams('maintenance', {})).toEqual([{ field: 'params.enabled', message: 'validation.required', code: '1001' }]);
    expect(validateCommandParams('maintenance', { enabled: 'yes' })).toEqual([{ field: 'params.enabled', message: 'validation.boolean', code: '1003' }]);
    expect(validateCommandParams('maintenance', { enabled: false })).toEqual([]);
  });

  it('on/off time: both required, HH:mm, off after on', () => {
    expect(validateCommandParams('setOnOffTime', {}).map((issue) => [issue.field, issue.message])).toEqual([
      ['params.onTime', 'validation.required'],
      ['params.offTime', 'validation.required'],
    ]);
    expect(validateCommandParams('setOnOffTime', { onTime: '7:00', offTime: '22:00' })).toEqual([{ field: 'params.onTime', message: 'fleet.validation.timeOfDay', code: '1004' }]);
    expect(validateCommandParams('setOnOffTime', { onTime: '22:00', offTime: '08:00' })).toEqual([{ field: 'params.offTime', message: 'validation.endAfterStart', code: '1004' }]);
    expect(validateCommandParams('setOnOffTime', { onTime: '08:00', offTime: '22:00' })).toEqual([]);
  });

  it('download logs: optional dates, "to" after "from"', () => {
    expect(validateCommandParams('downloadLogs', {})).toEqual([]);
    expect(validateCommandParams('downloadLogs', { from: 'yesterday' })).toEqual([{ field: 'params.from', message: 'validation.date', code: '1003' }]);
    expect(validateCommandParams('downloadLogs', { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toEqual([
      { field: 'params.to', message: 'validation.endAfterStart', code: '1004' },
    ]);
    expect(validateCommandParams('downloadLogs', { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' })).toEqual([]);
  });

  it('bin height: the four levels required, within the machine bounds, empty above full, almost full not above full', () => {
    expect(validateCommandParams('binHeight', VALID_BINS)).toEqual([]);
    expect(validateCommandParams('binHeight', {}).map((issue) => issue.field)).toEqual([
      'params.binEmptyHeight',
      'params.binFullHeight',
      'params.binAlmostFull',
      'params.binAlreadyFull',
    ]);
    expect(validateCommandParams('binHeight', { ...VALID_BINS, binFullHeight: 10 })).toEqual([
      { field: 'params.binFullHeight', message: 'validation.min', values: { min: 11 }, code: '1004' },
    ]);
    expect(validateCommandParams('binHeight', { ...VALID_BINS, binEmptyHeight: 20 }).map((issue) => issue.message)).toEqual(['fleet.validation.binEmptyAboveFull']);
    expect(validateCommandParams('binHeight', { ...VALID_BINS, binAlmostFull: 95 }).map((issue) => issue.message)).toEqual(['fleet.validation.almostFullNotAboveFull']);
  });
});

describe('normalizeCommandParams', () => {
  it('keeps declared, non-empty values only and sends date-times as ISO 8601 UTC', () => {
    // strict: an absent value must not come back as a key holding undefined
    expect(normalizeCommandParams('downloadLogs', { from: '2026-01-02T03:04:05+08:00', to: '', extra: 'x' })).toStrictEqual({ from: '2026-01-01T19:04:05.000Z' });
    expect(normalizeCommandParams('downloadLogs', { from: null, to: undefined })).toStrictEqual({});
    expect(normalizeCommandParams('downloadLogs', {})).toStrictEqual({});
    expect(normalizeCommandParams('restart', { anything: 1 })).toStrictEqual({});
  });

  it('passes other kinds through unchanged (times of day, numbers, false)', () => {
    expect(normalizeCommandParams('setOnOffTime', { onTime: '08:00', offTime: '22:00' })).toEqual({ onTime: '08:00', offTime: '22:00' });
    expect(normalizeCommandParams('binHeight', VALID_BINS)).toEqual(VALID_BINS);
    expect(normalizeCommandParams('maintenance', { enabled: false })).toEqual({ enabled: false });
  });

  it('converts only date-times given as text (a Date is passed on as is)', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    expect(normalizeCommandParams('downloadLogs', { from }).from).toBe(from);
  });
});

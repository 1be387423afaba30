// The http client's pure rules one by one (src/providers/http.ts, SPEC sections 7 and 8): the forced
// logout codes, GET parameter flattening, envelope reading, the failure toast text and the abort
// signal (issue 13's mutation run found these edges unobserved).
import { describe, expect, it } from 'vitest';
import { catalogueTranslator } from '../../src/providers/i18nProvider';
import { buildQueryString, convertDateTimes, failureMessage, flattenQuery, isForcedLogoutCode, readEnvelope, timeoutSignal } from '../../src/providers/http';

const en = catalogueTranslator('en');
const zh = catalogueTranslator('zh');
const envelope = (code: string, message = '', data: unknown = null) => ({ code, message, data });

describe('isForcedLogoutCode', () => {
  it('is the whole code 11011–11016, digits only', () => {
    expect(['11011', '11016'].map(isForcedLogoutCode)).toEqual([true, true]);
    expect(['11017', '111011', '11011x', 'x11011', ' 11011', ''].map(isForcedLogoutCode)).toEqual([false, false, false, false, false, false]);
  });
});

describe('flattenQuery', () => {
  it('skips null and undefined, sends dates as ISO, drops empty items of plain arrays', () => {
    const at = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(flattenQuery({ a: null, b: undefined, at, ids: [1, null, 2, undefined], when: [at] })).toEqual([
      ['at', '2024-01-02T03:04:05.000Z'],
      ['ids', '1,2'],
      ['when', '2024-01-02T03:04:05.000Z'],
    ]);
  });

  it('indexes arrays holding objects, and nests objects as name[key]', () => {
    expect(flattenQuery({ sort: [{ field: 'name' }, null, { field: 'id' }], filter: { name: 'x', range: { from: 1 } } })).toEqual([
      ['sort[0][field]', 'name'],
      ['sort[1][field]', 'id'],
      ['filter[name]', 'x'],
      ['filter[range][from]', '1'],
    ]);
  });

  it('builds an encoded query string, empty when nothing is sent', () => {
    expect(buildQueryString({ a: null })).toBe('');
    expect(buildQueryString(undefined)).toBe('');
    expect(buildQueryString({ 'f[x]': 'a+b c' })).toBe('?f%5Bx%5D=a%2Bb%20c');
  });
});

describe('convertDateTimes', () => {
  it('leaves non-plain objects (dates, class instances) and other values alone', () => {
    const date = new Date(0);
    class Box {
      value = '2024-01-02T03:04:05Z';
    }
    const box = new Box();
    expect(convertDateTimes(date)).toBe(date);
    expect(convertDateTimes(box)).toBe(box);
    expect(convertDateTimes(null)).toBeNull();
    expect(convertDateTimes(5)).toBe(5);
  });
});

describe('readEnvelope', () => {
  it('reads resCode/code, resMsg/msg/message and resData/data', () => {
    expect(readEnvelope({ resCode: '00000', resMsg: 'ok', resData: { a: 1 } })).toEqual({ code: '00000', message: 'ok', data: { a: 1 } });
    expect(readEnvelope({ code: 6, msg: 'bad', data: [1] })).toEqual({ code: '6', message: 'bad', data: [1] });
    expect(readEnvelope({ code: 0, message: 'fine' })).toEqual({ code: '0', message: 'fine', data: undefined });
    expect(readEnvelope({ resCode: '1', resMsg: 42, resData: null, data: 'ignored' })).toEqual({ code: '1', message: '', data: null });
  });

  it('is null for anything that is no envelope', () => {
    expect([null, undefined, 'text', 5, {}, { resCode: null }, { code: undefined }].map(readEnvelope)).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('failureMessage', () => {
  it('uses the catalogue text; the server message only for codes the catalogue lacks, else the generic failure', () => {
    expect(failureMessage(envelope('2003', 'Data does not exist'), en)).toBe('Data does not exist');
    expect(failureMessage(envelope('2003', ' data does not exist. '), en)).toBe('Data does not exist');
    // a Chinese console given the English generic text shows only its own
    expect(failureMessage(envelope('2003', 'Data does not exist!'), zh)).toBe('数据不存在');
    expect(failureMessage(envelope('99999', '  Unknown thing  '), en)).toBe('Unknown thing');
    expect(failureMessage(envelope('99999', '   '), en)).toBe('Background service exception');
  });

  it('appends a more specific server message, or the validation issues, after the catalogue text', () => {
    expect(failureMessage(envelope('1004', 'name is too long'), en)).toBe('Parameter error: name is too long');
    expect(failureMessage(envelope('1004', 'Parameter error: name is too long'), en)).toBe('Parameter error: name is too long');
    const issues = { issues: [{ message: 'name is required' }, { message: '' }, { other: 1 }, null, 'text', { message: 'age must be a number' }] };
    expect(failureMessage(envelope('1004', 'Parameter error', issues), en)).toBe('Parameter error: name is required; age must be a number');
    expect(failureMessage(envelope('1004', '', { issues: 'not a list' }), en)).toBe('Parameter error');
  });

  it('code 6 tells the attempts left, taken from the server message', () => {
    expect(failureMessage(envelope('6', 'Incorrect username or password, 12 attempts left'), en)).toBe('Incorrect username or password, you can also log in 12 times');
    expect(failureMessage(envelope('6', 'Incorrect username or password'), en)).toBe('Incorrect username or password');
  });
});

describe('timeoutSignal', () => {
  it('aborts at once for an already aborted caller signal, without calling it a time-out', () => {
    const outer = new AbortController();
    outer.abort();
    const timer = timeoutSignal(60_000, outer.signal);
    expect(timer.signal.aborted).toBe(true);
    expect(timer.timedOut()).toBe(false);
    timer.dispose();
  });

  it('follows a later caller abort, and no longer after dispose', () => {
    const outer = new AbortController();
    const timer = timeoutSignal(60_000, outer.signal);
    expect(timer.signal.aborted).toBe(false);
    outer.abort();
    expect(timer.signal.aborted).toBe(true);
    timer.dispose();

    const second = new AbortController();
    const disposed = timeoutSignal(60_000, second.signal);
    disposed.dispose();
    second.abort();
    expect(disposed.signal.aborted).toBe(false);
  });

  it('times out once, and a disposed timer never fires', async () => {
    const timer = timeoutSignal(5);
    const disposed = timeoutSignal(5);
    disposed.dispose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect([timer.timedOut(), timer.signal.aborted]).toEqual([true, true]);
    expect([disposed.timedOut(), disposed.signal.aborted]).toEqual([false, false]);
  });
});

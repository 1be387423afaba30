// The http client's pure rules one by one (src/providers/http.ts, docs/ARCHITECTURE.md#console-http-client): the forced
// logout codes, GET parameter flattening, envelope reading, the failure toast text and the abort
// signal (issue 13's mutation run found these edges unobserved).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogueTranslator } from '../../src/providers/i18nProvider';
import { format, isValid, parseISO } from 'date-fns';
import {
  buildQueryString,
  convertDateTimes,
  createHttpClient,
  failureMessage,
  flattenQuery,
  isForcedLogoutCode,
  readEnvelope,
  timeoutSignal,
  type HttpClientOptions,
  type Notify,
} from '../../src/providers/http';
import { ApiError } from '../../src/providers/httpTypes';

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

  // The client's own parser (the login page's bundle carries no date-fns) reads these forms as date-fns did.
  it("converts every ISO-like form as date-fns' parseISO and format did, and leaves out-of-range ones as they are", () => {
    const dates = [
      '2024-01-02',
      '2024-02-29',
      '2023-02-29',
      '1900-02-29',
      '2000-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-03-10',
      '2024-11-03',
      '0050-06-15',
      '9999-12-31',
      '2024-10-27',
    ];
    const times = ['03:04', '00:00:00', '23:59:59', '24:00', '24:00:00', '24:00:01', '24:00:00.5', '25:00', '12:60', '12:30:60', '12:30:59.999999999', '02:30', '01:30:15.5'];
    const zones = ['', 'Z', '+08:00', '-05:00', '+0530', '+08', '-12', '+14:00', '+08:60', '+00:59'];
    const expected = (value: string) => {
      const date = parseISO(value);
      return isValid(date) ? format(date, 'yyyy-MM-dd HH:mm:ss') : value;
    };
    let checked = 0;
    for (const date of dates)
      for (const time of times)
        for (const zone of zones)
          for (const separator of ['T', ' ']) {
            const value = `${date}${separator}${time}${zone}`;
            expect([value, convertDateTimes(value)]).toEqual([value, expected(value)]);
            checked += 1;
          }
    expect(checked).toBe(dates.length * times.length * zones.length * 2);
    // unchanged when it is no date-time at all
    for (const value of ['2024-01-02', '2024-01-02T03', '2024-01-02T03:04:05+8', '2024-01-02T03:04:05.1234567890Z', 'x2024-01-02T03:04'])
      expect(convertDateTimes(value)).toBe(value);
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

  it('takes the server\'s text whole for a catalogue text with placeholders (docs/files.md "Media sizes")', () => {
    const text = 'Wrong size: this picture or video must be 1080×1110 pixels, this file is 1080×610';
    expect(failureMessage(envelope('9603', text), en)).toBe(text);
    expect(failureMessage(envelope('9603', '尺寸不符：此图片或视频必须为 1080×1110 像素，此文件为 1080×610'), zh)).toBe(
      '尺寸不符：此图片或视频必须为 1080×1110 像素，此文件为 1080×610',
    );
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

describe('rules at their edges (issue 13, second mutation run)', () => {
  it('a forced-logout code is digits only: no blanks, decimals or exponent that Number() would read as 11011', () => {
    expect(['11011 ', '11011.0', '1.1011e4', '11011\n'].map(isForcedLogoutCode)).toEqual([false, false, false, false]);
  });

  it('indexes an array that mixes objects and plain values, instead of joining "[object Object]"', () => {
    expect(flattenQuery({ list: [{ a: 1 }, 2] })).toEqual([
      ['list[0][a]', '1'],
      ['list[1]', '2'],
    ]);
  });

  it('converts an absent payload to nothing (an envelope without data)', () => {
    expect(convertDateTimes(undefined)).toBeUndefined();
    expect(convertDateTimes({ at: undefined })).toEqual({ at: undefined });
  });

  it('a code that is null is no envelope', () => {
    expect(readEnvelope({ code: null, message: 'x' })).toBeNull();
    expect(readEnvelope({ resCode: null, code: null })).toBeNull();
  });

  it('ignores any run of closing punctuation, and only at the end, when telling the generic text from a detail', () => {
    expect(failureMessage(envelope('2003', 'Data does not exist!!'), en)).toBe('Data does not exist');
    expect(failureMessage(envelope('2003', 'Data does not exist...'), en)).toBe('Data does not exist');
    expect(failureMessage(envelope('2003', '数据不存在！！'), zh)).toBe('数据不存在');
    // punctuation inside the text makes it another text: shown after the generic one
    expect(failureMessage(envelope('2003', 'Data. Does not exist'), en)).toBe('Data does not exist: Data. Does not exist');
  });

  it('does not repeat the catalogue text given by a validation issue with blanks around it', () => {
    const issues = { issues: [{ message: '  Parameter error: name is required' }] };
    expect(failureMessage(envelope('1004', '', issues), en).trim()).toBe('Parameter error: name is required');
  });

  it('works with a catalogue that knows a code the English one lacks (the generic text is then only its own)', () => {
    const local: typeof en = (key, values) => (key === 'errors.77001' ? 'Machine offline' : en(key, values));
    expect(failureMessage(envelope('77001', 'Machine offline.'), local)).toBe('Machine offline');
    expect(failureMessage(envelope('77001', 'RVM 12 is offline'), local)).toBe('Machine offline: RVM 12 is offline');
  });
});

describe('the client at its edges (issue 13, second mutation run)', () => {
  type Call = { url: string; init: RequestInit };
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
  const client = (answer: (call: Call) => Response | Promise<Response>, extra: Partial<HttpClientOptions> = {}) => {
    const calls: Call[] = [];
    const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
      const call = { url: String(url), init: init ?? {} };
      calls.push(call);
      return answer(call);
    }) as typeof globalThis.fetch;
    const notify = vi.fn<Notify>();
    const setForcedPasswordChange = vi.fn();
    const session = { getToken: () => null, getLang: () => 'en' as const, clear: vi.fn(), setForcedPasswordChange };
    const http = createHttpClient({ fetch, session, notify, translate: en, onForcedLogout: vi.fn(), ...extra });
    return { http, calls, notify, setForcedPasswordChange };
  };
  const headers = (call: Call) => call.init.headers as Record<string, string>;

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('uses the page fetch when none is given', async () => {
    const fetch = vi.fn(async () => json({ resCode: '00000', resData: 7 }));
    vi.stubGlobal('fetch', fetch);
    const session = { getToken: () => null, getLang: () => 'en' as const, clear: vi.fn() };
    const http = createHttpClient({ session, notify: vi.fn(), translate: en, onForcedLogout: vi.fn() });
    await expect(http.get('/x')).resolves.toBe(7);
    expect(fetch).toHaveBeenCalledWith('/test-api/x', expect.objectContaining({ method: 'GET' }));
  });

  it('sends each method by name, asks for JSON, and a body with its Content-Type only when there is one and it is no GET', async () => {
    const { http, calls } = client(() => json({ resCode: '0', resData: null }));
    await http.get('/a');
    await http.post('/b');
    await http.post('/c', { n: 1 });
    await http.request('GET', '/d', { body: { n: 2 } });
    await http.del('/e');
    expect(calls.map((call) => [call.url, call.init.method, call.init.body, headers(call)['Content-Type']])).toEqual([
      ['/test-api/a', 'GET', undefined, undefined],
      ['/test-api/b', 'POST', undefined, undefined],
      ['/test-api/c', 'POST', '{"n":1}', 'application/json'],
      ['/test-api/d', 'GET', undefined, undefined],
      ['/test-api/e', 'DELETE', undefined, undefined],
    ]);
    expect(calls.every((call) => headers(call).Accept === 'application/json')).toBe(true);
  });

  it('answers an empty 2xx body as null and any other JSON that is no envelope as it is, dates converted', async () => {
    const { http, notify } = client(({ url }) =>
      url.endsWith('/empty') ? new Response(null, { status: 204 }) : url.endsWith('/299') ? json([1], 299) : json({ at: '2024-01-02T03:04:05', list: [1] }),
    );
    await expect(http.get('/empty')).resolves.toBeNull();
    await expect(http.get('/299')).resolves.toEqual([1]);
    await expect(http.get('/plain')).resolves.toEqual({ at: '2024-01-02 03:04:05', list: [1] });
    expect(notify).not.toHaveBeenCalled();
  });

  it('answers an envelope without data as nothing', async () => {
    const { http } = client(() => json({ resCode: '00000' }));
    await expect(http.get('/x')).resolves.toBeUndefined();
  });

  it('takes JSON that is no envelope outside 2xx (a redirect, an error page, a network error answer) for a connection failure', async () => {
    for (const answer of [() => json({ error: 'x' }, 300), () => json({ error: 'x' }, 500), () => Response.error()]) {
      const { http, notify } = client(answer);
      const failure = (await http.get('/x').catch((error: unknown) => error)) as ApiError;
      expect(failure).toBeInstanceOf(ApiError);
      expect([failure.code, failure.message]).toEqual(['network', 'Connection Failed, Please try again later']);
      expect(notify).toHaveBeenCalledWith('Connection Failed, Please try again later', { type: 'error', autoHideDuration: 5000 });
    }
  });

  it('leaves no timer running once answered, nor after a failure', async () => {
    vi.useFakeTimers();
    const { http } = client(({ url }) => (url.endsWith('/ok') ? json({ resCode: '0', resData: 1 }) : Promise.reject(new TypeError('Failed to fetch'))));
    await http.get('/ok');
    await http.get('/down', undefined, { silent: true }).catch(() => undefined);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    [{ reason: 'passwordExpired' }, 'passwordExpired'],
    [{ reason: 'other' }, 'firstLogin'],
    [null, 'firstLogin'],
  ])('4007 with data %j forces the password change (%s) without a toast, and rejects', async (data, reason) => {
    const { http, notify, setForcedPasswordChange } = client(() => json({ resCode: '4007', resMsg: '', resData: data }, 403));
    const failure = (await http.get('/x').catch((error: unknown) => error)) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect([failure.code, failure.message, failure.status]).toEqual(['4007', 'Please change your password first', 403]);
    expect(setForcedPasswordChange).toHaveBeenCalledWith(reason);
    expect(notify).not.toHaveBeenCalled();
  });

  it('4007 rejects the same for a session that cannot force the change (the login page)', async () => {
    const session = { getToken: () => null, getLang: () => 'en' as const, clear: vi.fn() };
    const { http, notify } = client(() => json({ resCode: '4007', resMsg: '' }, 403), { session });
    await expect(http.post('/x', {})).rejects.toMatchObject({ code: '4007' });
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('ApiError', () => {
  it('is named ApiError, so logs and String(error) tell it from other failures', () => {
    const error = new ApiError('2003', 'Data does not exist', { id: 4 }, 404);
    expect(error.name).toBe('ApiError');
    expect(String(error)).toBe('ApiError: Data does not exist');
    expect([error.code, error.data, error.status]).toEqual(['2003', { id: 4 }, 404]);
  });
});

// The http client's conventions (docs/ARCHITECTURE.md#console-http-client), with an injected fake fetch.
import { describe, expect, it, vi } from 'vitest';
import { translate as translateCatalogue } from '../../i18n';
import { buildQueryString, convertDateTimes, createHttpClient, flattenQuery, type Notify } from '../../src/providers/http';
import { ApiError } from '../../src/providers/httpTypes';

type FetchCall = { url: string; init: RequestInit };

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const setup = (answer: (call: FetchCall) => Response | Promise<Response>, options: { lang?: 'en' | 'zh'; token?: boolean; timeoutMs?: number } = {}) => {
  const calls: FetchCall[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    return answer(call);
  }) as unknown as typeof globalThis.fetch;
  const session = {
    getToken: () => (options.token === false ? null : { name: 'rvm-token', value: 'tok-1' }),
    getLang: () => options.lang ?? 'en',
    clear: vi.fn(),
  };
  const notify = vi.fn<Notify>();
  const onForcedLogout = vi.fn();
  const lang = options.lang ?? 'en';
  const http = createHttpClient({
    fetch,
    session,
    notify,
    onForcedLogout,
    translate: (key, values) => translateCatalogue(lang, key, values),
    timeoutMs: options.timeoutMs,
  });
  return { http, calls, notify, onForcedLogout, session };
};

const headersOf = (call: FetchCall) => call.init.headers as Record<string, string>;

describe('requests', () => {
  it('prefixes /test-api and sends the token header named by the session', async () => {
    const { http, calls } = setup(() => jsonResponse({ resCode: '00000', resData: 1 }));
    await http.get('/user/1');
    expect(calls[0].url).toBe('/test-api/user/1');
    expect(headersOf(calls[0])['rvm-token']).toBe('tok-1');
  });

  it('sends no token header when signed out', async () => {
    const { http, calls } = setup(() => jsonResponse({ resCode: '00000', resData: null }), { token: false });
    await http.post('/login/login', { username: 'a' });
    expect(Object.keys(headersOf(calls[0]))).not.toContain('rvm-token');
    expect(calls[0].init.body).toBe(JSON.stringify({ username: 'a' }));
    expect(headersOf(calls[0])['Content-Type']).toBe('application/json');
  });

  it('sends the current language in the lang header', async () => {
    const { http, calls } = setup(() => jsonResponse({ resCode: '00000', resData: null }), { lang: 'zh' });
    await http.get('/x');
    expect(headersOf(calls[0]).lang).toBe('zh');
  });

  it('flattens GET parameters: nested name[key], null/undefined skipped, arrays comma-joined', async () => {
    const { http, calls } = setup(() => jsonResponse({ resCode: '00000', resData: [] }));
    await http.get('/user/list', { nameLike: 'ad min', ids: [1, 2], skip: null, gone: undefined, filter: { a: 1, b: { c: 'x' }, n: null } });
    expect(calls[0].url).toBe('/test-api/user/list?nameLike=ad%20min&ids=1%2C2&filter%5Ba%5D=1&filter%5Bb%5D%5Bc%5D=x');
  });

  it('flattens arrays of objects by index and keeps booleans and zero', () => {
    expect(flattenQuery({ list: [{ a: 1 }, { a: 2 }], on: false, zero: 0 })).toEqual([
      ['list[0][a]', '1'],
      ['list[1][a]', '2'],
      ['on', 'false'],
      ['zero', '0'],
    ]);
    expect(buildQueryString({})).toBe('');
    expect(buildQueryString({ password: 'a+b&c' })).toBe('?password=a%2Bb%26c');
  });

  it('sends PUT queries (change password) and DELETE queries', async () => {
    const { http, calls } = setup(() => jsonResponse({ resCode: '00000', resData: null }));
    await http.put('/user/password', { oldPassword: 'o' }, { query: { password: 'N3w!pass' } });
    await http.del('/user', { id: 5 });
    expect(calls[0].url).toBe('/test-api/user/password?password=N3w!pass');
    expect(calls[0].init.method).toBe('PUT');
    expect(calls[1].url).toBe('/test-api/user?id=5');
    expect(calls[1].init.method).toBe('DELETE');
  });

  it('times out after timeoutMs with the connection-failed toast', async () => {
    vi.useFakeTimers();
    try {
      const { http, notify } = setup(
        ({ init }) => new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
        { timeoutMs: 60_000 },
      );
      const pending = http.get('/slow').catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(notify).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      const error = (await pending) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe('timeout');
      expect(notify).toHaveBeenCalledWith('Connection Failed, Please try again later', { type: 'error', autoHideDuration: 5000 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('defaults to a 60 s time-out: still waiting 1 ms before, failed at 60 s', async () => {
    vi.useFakeTimers();
    try {
      const { http, notify } = setup(({ init }) => new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('abort')))));
      let outcome: string | undefined;
      const pending = http.get('/slow').catch((error: ApiError) => (outcome = error.code));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(outcome).toBeUndefined(); // a shorter default (1 s, 30 s) would have failed it already
      expect(notify).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('answers', () => {
  it.each([[{ resCode: '00000', resData: { a: 1 } }], [{ resCode: '0', resData: { a: 1 } }], [{ code: '00000', data: { a: 1 } }], [{ code: 0, data: { a: 1 } }]])(
    'resolves with the payload of %j',
    async (body) => {
      const { http, notify } = setup(() => jsonResponse(body));
      await expect(http.get('/x')).resolves.toEqual({ a: 1 });
      expect(notify).not.toHaveBeenCalled();
    },
  );

  it('converts ISO-like date-times anywhere in the payload to local YYYY-MM-DD HH:mm:ss', async () => {
    const utc = '2024-03-05T07:08:09.123Z';
    const expected = (() => {
      const d = new Date(utc);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    })();
    const { http } = setup(() =>
      jsonResponse({ resCode: '00000', resData: { createTime: utc, list: [{ at: utc, name: 'x' }], day: '2024-03-05', n: 5, text: 'at 2024-03-05T07:08:09Z' } }),
    );
    await expect(http.get('/x')).resolves.toEqual({ createTime: expected, list: [{ at: expected, name: 'x' }], day: '2024-03-05', n: 5, text: 'at 2024-03-05T07:08:09Z' });
    expect(convertDateTimes('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(convertDateTimes('2024-01-02T03:04')).toBe('2024-01-02 03:04:00');
  });

  it('toasts the translated catalogue message for 5 s and rejects with ApiError', async () => {
    const { http, notify } = setup(() => jsonResponse({ resCode: '2003', resMsg: 'Data does not exist', resData: null }, 404), { lang: 'zh' });
    const error = (await http.get('/user/9').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('2003');
    expect(error.status).toBe(404);
    expect(error.message).toBe('数据不存在');
    expect(notify).toHaveBeenCalledWith('数据不存在', { type: 'error', autoHideDuration: 5000 });
  });

  it('appends a more specific server message after ": "', async () => {
    const { http, notify } = setup(() => jsonResponse({ resCode: '1004', resMsg: 'name: The length must be between 2 and 8 characters' }, 400));
    await expect(http.post('/user', {})).rejects.toThrow('Parameter error: name: The length must be between 2 and 8 characters');
    expect(notify.mock.calls[0][0]).toBe('Parameter error: name: The length must be between 2 and 8 characters');
  });

  it('does not repeat a server message that already starts with the catalogue text', async () => {
    const { http } = setup(() => jsonResponse({ resCode: '1004', resMsg: 'Parameter error: unknown field x' }, 400));
    await expect(http.post('/user', {})).rejects.toThrow(/^Parameter error: unknown field x$/);
  });

  it('uses the validation issues when the server message is only the generic text', async () => {
    const { http } = setup(() =>
      jsonResponse({ resCode: '1001', resMsg: 'Parameter cannot be empty', resData: { issues: [{ field: 'name', message: 'This field cannot be empty' }] } }, 400),
    );
    await expect(http.post('/user', {})).rejects.toThrow('Parameter cannot be empty: This field cannot be empty');
  });

  it('falls back to the server message for codes the catalogue lacks', async () => {
    const { http, notify } = setup(() => jsonResponse({ resCode: '7777', resMsg: 'Something specific' }, 400));
    await expect(http.get('/x')).rejects.toThrow('Something specific');
    expect(notify.mock.calls[0][0]).toBe('Something specific');
  });

  it('adds the attempts left to code 6, N taken from the server message', async () => {
    const { http, notify } = setup(() => jsonResponse({ resCode: '6', resMsg: 'Incorrect username or password, you can also log in 3 times' }, 400));
    await expect(http.post('/login/login', {})).rejects.toMatchObject({ code: '6' });
    expect(notify.mock.calls[0][0]).toBe('Incorrect username or password, you can also log in 3 times');
    const zh = setup(() => jsonResponse({ resCode: '6', resMsg: '用户名或密码错误，您还可以登录 2 次' }, 400), { lang: 'zh' });
    await zh.http.post('/login/login', {}).catch(() => undefined);
    expect(zh.notify.mock.calls[0][0]).toBe('用户名或密码错误，您还可以登录 2 次');
  });

  it('does not toast when the caller asks for silence, but still rejects', async () => {
    const { http, notify } = setup(() => jsonResponse({ resCode: '5001', resMsg: '' }, 400));
    await expect(http.get('/x', undefined, { silent: true })).rejects.toMatchObject({ code: '5001', message: 'Abnormal operation' });
    expect(notify).not.toHaveBeenCalled();
  });

  it.each(['11011', '11012', '11013', '11014', '11015', '11016'])('forces a logout on %s: session cleared, reload, no toast', async (code) => {
    const { http, notify, onForcedLogout, session } = setup(() => jsonResponse({ resCode: code, resMsg: 'x' }, 401));
    await expect(http.get('/x')).rejects.toMatchObject({ code });
    expect(session.clear).toHaveBeenCalledTimes(1);
    expect(onForcedLogout).toHaveBeenCalledTimes(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it.each(['11010', '11017', '1101'])('does not force a logout on the neighbouring code %s: it toasts like any failure', async (code) => {
    const { http, onForcedLogout, session, notify } = setup(() => jsonResponse({ resCode: code, resMsg: 'x' }, 400));
    await expect(http.get('/x')).rejects.toMatchObject({ code });
    expect(onForcedLogout).not.toHaveBeenCalled();
    expect(session.clear).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('shows the connection-failed text on a network failure', async () => {
    const { http, notify } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(http.get('/x')).rejects.toMatchObject({ code: 'network', message: 'Connection Failed, Please try again later' });
    expect(notify).toHaveBeenCalledWith('Connection Failed, Please try again later', { type: 'error', autoHideDuration: 5000 });
  });

  it('treats a non-JSON error page (proxy 502) as a connection failure', async () => {
    const { http } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(http.get('/x')).rejects.toMatchObject({ code: 'network' });
  });

  it('does not toast when the caller aborts', async () => {
    const controller = new AbortController();
    const { http, notify } = setup(
      ({ init }) => new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const pending = http.get('/x', undefined, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow('aborted');
    expect(notify).not.toHaveBeenCalled();
  });
});

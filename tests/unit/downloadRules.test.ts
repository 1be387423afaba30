// The download client's edges (src/providers/download.ts): what it sends, file names, progress
// without a stream or a length, silent failures and a caller's own abort (issue 13's mutation run).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { translate as translateCatalogue } from '../../i18n';
import { createDownloadClient, filenameFromDisposition } from '../../src/providers/download';
import type { Notify } from '../../src/providers/http';

const setup = (answer: (init: RequestInit) => Response | Promise<Response>) => {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer(init ?? {});
  }) as typeof globalThis.fetch;
  const notify = vi.fn<Notify>();
  const session = { getToken: () => ({ name: 'rvm-token', value: 't' }), getLang: () => 'en' as const, clear: vi.fn() };
  const client = createDownloadClient({ fetch, session, notify, onForcedLogout: vi.fn(), translate: (k, v) => translateCatalogue('en', k, v) });
  return { client, calls, notify };
};

const file = (text: string, headers: Record<string, string> = {}) => new Response(text, { status: 200, headers });

describe('what the download client sends', () => {
  it('a JSON body with its Content-Type for a POST, the query on the URL', async () => {
    const { client, calls } = setup(() => file('x'));
    await client.download('POST', '/user/export', { body: { format: 'csv' }, query: { lang: 'en' } });
    expect(calls[0].url).toBe('/test-api/user/export?lang=en');
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.body).toBe('{"format":"csv"}');
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('no body and no Content-Type for a GET, nor for a POST without a body', async () => {
    const { client, calls } = setup(() => file('x'));
    await client.download('GET', '/report/file', { body: { ignored: true } });
    await client.download('POST', '/report/file');
    for (const call of calls) {
      expect(call.init.body).toBeUndefined();
      expect((call.init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    }
  });
});

describe('file names', () => {
  it('prefer filename*, trimmed and decoded; then a quoted or bare filename; then the fallback', () => {
    expect(filenameFromDisposition('attachment; filename*=UTF-8\'\'a%20b.csv ; filename="x.csv"', 'f')).toBe('a b.csv');
    expect(filenameFromDisposition("attachment; filename* = utf-8''%E6%8A%A5%E8%A1%A8.xlsx", 'f')).toBe('报表.xlsx');
    expect(filenameFromDisposition('attachment; filename*=UTF-8\'\'%E0%A4%A; filename="plain.csv"', 'f')).toBe('plain.csv');
    expect(filenameFromDisposition('attachment; filename = "quoted name.csv"', 'f')).toBe('quoted name.csv');
    expect(filenameFromDisposition('attachment; filename=bare.csv ', 'f')).toBe('bare.csv');
    expect(filenameFromDisposition('attachment', 'f')).toBe('f');
    expect(filenameFromDisposition(null, 'f')).toBe('f');
    expect(filenameFromDisposition('', 'f')).toBe('f');
  });

  it('fall back to the last path segment, decoded, ignoring a trailing slash', async () => {
    const { client } = setup(() => file('x'));
    expect((await client.download('GET', '/reports/monthly%20sales/')).filename).toBe('monthly sales');
  });
});

describe('progress', () => {
  it('has no total without a usable Content-Length', async () => {
    for (const length of [undefined, '0', 'abc']) {
      const progress: Array<number | undefined> = [];
      const { client } = setup(() => file('abcd', length === undefined ? {} : { 'Content-Length': length }));
      await client.download('GET', '/f', { onProgress: (p) => progress.push(p.total) });
      expect(progress.every((total) => total === undefined) && progress.length > 0).toBe(true);
    }
  });

  it('reports the whole size once for an answer without a stream, typed octet-stream by default', async () => {
    const bodyless = { status: 200, headers: new Headers({ 'Content-Length': '3' }), body: null, blob: async () => new Blob(['abc']), text: async () => '' } as unknown as Response;
    const { client } = setup(() => bodyless);
    const progress: Array<[number, number | undefined]> = [];
    const { blob } = await client.download('GET', '/f', { onProgress: (p) => progress.push([p.loaded, p.total]) });
    expect(blob.size).toBe(3);
    expect(progress).toEqual([[3, 3]]);
    const typed = setup(() => new Response(new Blob(['z']).stream(), { status: 200 }));
    expect((await typed.client.download('GET', '/f')).blob.type).toBe('application/octet-stream');
  });
});

describe('failures', () => {
  it('a silent download throws without a toast', async () => {
    const { client, notify } = setup(() => new Response('oops', { status: 500 }));
    await expect(client.download('GET', '/f', { silent: true })).rejects.toMatchObject({ code: 'download', message: 'Download failed' });
    expect(notify).not.toHaveBeenCalled();
  });

  it("a caller's own abort is passed on as it is, without a toast", async () => {
    const controller = new AbortController();
    const cause = new DOMException('stopped', 'AbortError');
    const { client, notify } = setup(() => {
      controller.abort();
      throw cause;
    });
    await expect(client.download('GET', '/f', { signal: controller.signal })).rejects.toBe(cause);
    expect(notify).not.toHaveBeenCalled();
  });

  it('an envelope failure keeps its code and data', async () => {
    const { client } = setup(() => new Response(JSON.stringify({ resCode: '2003', resMsg: 'Data does not exist', resData: { id: 4 } }), { status: 404 }));
    await expect(client.download('GET', '/f')).rejects.toMatchObject({ code: '2003', data: { id: 4 }, status: 404 });
  });
});

describe('edges of the download client (issue 13, second mutation run)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('uses the page fetch when none is given', async () => {
    const fetch = vi.fn(async () => file('abc'));
    vi.stubGlobal('fetch', fetch);
    const session = { getToken: () => null, getLang: () => 'en' as const, clear: vi.fn() };
    const client = createDownloadClient({ session, notify: vi.fn(), onForcedLogout: vi.fn(), translate: (k, v) => translateCatalogue('en', k, v) });
    expect((await client.download('GET', '/files/a.csv')).blob.size).toBe(3);
    expect(fetch).toHaveBeenCalledWith('/test-api/files/a.csv', expect.objectContaining({ method: 'GET' }));
  });

  it('names a file of a path without segments "download"', async () => {
    const { client } = setup(() => file('x'));
    expect((await client.download('GET', '/')).filename).toBe('download');
  });

  it('reads an answer without a stream when nobody follows the progress', async () => {
    const bodyless = { status: 200, headers: new Headers(), body: null, blob: async () => new Blob(['abc']), text: async () => '' } as unknown as Response;
    const { client, notify } = setup(() => bodyless);
    expect((await client.download('GET', '/f')).blob.size).toBe(3);
    expect(notify).not.toHaveBeenCalled();
  });

  it('a request that never reaches the server fails as "download" with the toast', async () => {
    const { client, notify } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.download('GET', '/f')).rejects.toMatchObject({ code: 'download', message: 'Download failed' });
    expect(notify).toHaveBeenCalledWith('Download failed', { type: 'error', autoHideDuration: 5000 });
  });

  const breaking = (onPull?: () => void) =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array([65]));
        },
        pull(controller) {
          onPull?.();
          controller.error(new TypeError('connection reset'));
        },
      }),
      { status: 200 },
    );

  it('a file whose transfer breaks off fails as "download" with its status and the toast', async () => {
    const { client, notify } = setup(() => breaking());
    const failure = await client.download('GET', '/f').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'download', message: 'Download failed', status: 200 });
    expect(notify).toHaveBeenCalledWith('Download failed', { type: 'error', autoHideDuration: 5000 });
  });

  it("a caller's abort during the transfer is passed on as it is, without a toast", async () => {
    const controller = new AbortController();
    const { client, notify } = setup(() => breaking(() => controller.abort()));
    const failure = await client.download('GET', '/f', { signal: controller.signal }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('connection reset');
    expect(notify).not.toHaveBeenCalled();
  });

  it('leaves no timer running once the file is there, nor after a failure', async () => {
    vi.useFakeTimers();
    const { client } = setup(() => file('x'));
    await client.download('GET', '/f');
    const failing = setup(() => new Response('oops', { status: 500 }));
    await failing.client.download('GET', '/f', { silent: true }).catch(() => undefined);
    expect(vi.getTimerCount()).toBe(0);
  });
});

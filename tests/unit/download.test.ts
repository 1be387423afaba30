// The download client: token header, 5 min time-out, blob with progress, 'Download failed'.
import { describe, expect, it, vi } from 'vitest';
import { translate as translateCatalogue } from '../../i18n';
import { createDownloadClient, DOWNLOAD_TIMEOUT_MS, filenameFromDisposition } from '../../src/providers/download';
import type { Notify } from '../../src/providers/http';

const setup = (answer: (init: RequestInit) => Response | Promise<Response>, lang: 'en' | 'zh' = 'en') => {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer(init ?? {});
  }) as typeof globalThis.fetch;
  const notify = vi.fn<Notify>();
  const onForcedLogout = vi.fn();
  const session = { getToken: () => ({ name: 'rvm-token', value: 't' }), getLang: () => lang, clear: vi.fn() };
  const client = createDownloadClient({ fetch, session, notify, onForcedLogout, translate: (k, v) => translateCatalogue(lang, k, v) });
  return { client, calls, notify, onForcedLogout, session };
};

describe('download client', () => {
  it('downloads a blob with the token header, reports progress and reads the file name', async () => {
    const bytes = new Uint8Array(10).fill(65);
    const { client, calls } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(bytes.slice(0, 4));
              controller.enqueue(bytes.slice(4));
              controller.close();
            },
          }),
          { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Length': '10', 'Content-Disposition': "attachment; filename*=UTF-8''users%20list.csv" } },
        ),
    );
    const progress: Array<[number, number | undefined]> = [];
    const { blob, filename } = await client.download('POST', '/user/export', { body: { format: 'csv' }, onProgress: (p) => progress.push([p.loaded, p.total]) });
    expect(calls[0].url).toBe('/test-api/user/export');
    expect((calls[0].init.headers as Record<string, string>)['rvm-token']).toBe('t');
    expect(blob.size).toBe(10);
    expect(blob.type).toBe('text/csv');
    expect(filename).toBe('users list.csv');
    expect(progress).toEqual([
      [4, 10],
      [10, 10],
    ]);
  });

  it("shows 'Download failed' on a non-200 answer", async () => {
    const { client, notify } = setup(() => new Response('oops', { status: 500 }));
    await expect(client.download('GET', '/file')).rejects.toMatchObject({ message: 'Download failed', status: 500 });
    expect(notify).toHaveBeenCalledWith('Download failed', { type: 'error', autoHideDuration: 5000 });
  });

  it('appends the server reason of an envelope failure, in the current language', async () => {
    const { client, notify } = setup(() => new Response(JSON.stringify({ resCode: '4003', resMsg: '' }), { status: 403 }), 'zh');
    await client.download('GET', '/file').catch(() => undefined);
    expect(notify.mock.calls[0][0]).toBe('下载失败：您没有执行此操作的权限');
  });

  it('forces a logout on a forced-logout code, without a toast', async () => {
    const { client, notify, onForcedLogout, session } = setup(() => new Response(JSON.stringify({ resCode: '11013', resMsg: '' }), { status: 401 }));
    await client.download('GET', '/file').catch(() => undefined);
    expect(session.clear).toHaveBeenCalled();
    expect(onForcedLogout).toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });

  it("shows 'Download failed' when the connection fails", async () => {
    const { client, notify } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await client.download('GET', '/file').catch(() => undefined);
    expect(notify.mock.calls[0][0]).toBe('Download failed');
  });

  it('times out after 5 minutes by default: still waiting 1 ms before, failed at 300 s', async () => {
    vi.useFakeTimers();
    try {
      const { client, notify } = setup((init) => new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('abort')))));
      let outcome: string | undefined;
      const pending = client.download('GET', '/file').catch((error: { code: string }) => (outcome = error.code));
      // the figure itself, not the constant: a changed constant must fail here
      await vi.advanceTimersByTimeAsync(299_999);
      expect(outcome).toBeUndefined();
      expect(notify).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toBe('timeout');
      expect(notify.mock.calls[0][0]).toBe('Download failed');
      expect(DOWNLOAD_TIMEOUT_MS).toBe(300_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('parses plain Content-Disposition names and falls back to the path', () => {
    expect(filenameFromDisposition('attachment; filename="a b.xlsx"', 'x')).toBe('a b.xlsx');
    expect(filenameFromDisposition(null, 'export')).toBe('export');
  });
});

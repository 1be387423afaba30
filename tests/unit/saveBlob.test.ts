// @vitest-environment jsdom
// Handing a downloaded file to the browser (src/providers/download.ts saveBlob): an object URL on a
// temporary anchor named after the file, clicked once and taken away, the URL revoked 10 s later
// (issue 13's mutation run found this path run by no test).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../src/providers/download';

const urls = URL as unknown as { createObjectURL?: (blob: Blob) => string; revokeObjectURL?: (url: string) => void };
const original = { create: urls.createObjectURL, revoke: urls.revokeObjectURL };

afterEach(() => {
  urls.createObjectURL = original.create;
  urls.revokeObjectURL = original.revoke;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('saveBlob', () => {
  it('clicks an anchor in the page that points at the blob and names the file, then removes it and revokes the URL after 10 s', () => {
    vi.useFakeTimers();
    const blob = new Blob(['a,b'], { type: 'text/csv' });
    const created: Blob[] = [];
    const revoked: string[] = [];
    urls.createObjectURL = (given) => {
      created.push(given);
      return 'blob:http://localhost/42';
    };
    urls.revokeObjectURL = (url) => void revoked.push(url);
    const clicks: Array<{ href: string; download: string; inPage: boolean }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download, inPage: document.body.contains(this) });
    });

    saveBlob(blob, 'users list.csv');

    expect(created).toEqual([blob]);
    expect(clicks).toEqual([{ href: 'blob:http://localhost/42', download: 'users list.csv', inPage: true }]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
    vi.advanceTimersByTime(9_999);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(revoked).toEqual(['blob:http://localhost/42']);
  });
});

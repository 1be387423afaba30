// Report files are rendered in worker threads (server/reports/renderInWorker.ts): the same bytes as
// rendering in place, the event loop free meanwhile, a cancelled render ended, and the pool usable after.
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../server/reports/generate';
import type { ReportData } from '../../server/reports/query';
import { RenderCancelled, renderInWorker } from '../../server/reports/renderInWorker';
import { longestStall } from '../timing/longestStall';

const reportOf = (count: number): ReportData => ({
  report: 'barcodeRejects',
  rows: Array.from({ length: count }, (_, index) => ({
    time: new Date(Date.UTC(2026, 9, 1) + index * 60_000).toISOString(),
    termNo: `RVM${index % 200}`,
    fleetName: `Fleet ${index % 7}`,
    barcode: String(4_891_234_000_000 + index),
    itemType: index % 2 ? 'can' : 'pet',
    reason: 1 + (index % 7),
  })),
  total: count,
  totals: {},
  chart: [],
});
const range = { from: new Date(Date.UTC(2026, 9, 1)), to: new Date(Date.UTC(2026, 9, 31)), utcOffsetMinutes: 480 };

describe('report files rendered off the request loop', () => {
  it('answer the same file as rendering in place, in both formats and languages', async () => {
    const data = reportOf(300);
    for (const format of ['csv', 'xlsx'] as const) {
      for (const locale of ['en', 'zh'] as const) {
        const inPlace = await renderReport(data, range, format, locale);
        const inWorker = await renderInWorker({ data, range, format, locale });
        expect([inWorker.fileName, inWorker.contentType]).toEqual([inPlace.fileName, inPlace.contentType]);
        // an XLSX is a zip whose entries carry times: compare its size; a CSV byte for byte
        if (format === 'csv') expect(inWorker.content.equals(inPlace.content)).toBe(true);
        else expect(Math.abs(inWorker.content.length - inPlace.content.length)).toBeLessThan(64);
      }
    }
  });

  it('keep the event loop free while a large XLSX renders (rendering in place holds it for most of the render)', async () => {
    const data = reportOf(24_000);
    await renderInWorker({ data: reportOf(10), range, format: 'xlsx', locale: 'en' }); // a thread ready, as a running server has
    const inPlace = await longestStall(() => renderReport(data, range, 'xlsx', 'en'));
    const inWorker = await longestStall(() => renderInWorker({ data, range, format: 'xlsx', locale: 'en' }));
    expect(inWorker.result.content.length).toBeGreaterThan(500_000);
    // measured here: in place the loop is held ~80 % of the render; in a worker, for the hand-over of the rows only
    expect(inPlace.longest).toBeGreaterThan(inPlace.took / 2);
    expect(inWorker.longest).toBeLessThan(inWorker.took / 2);
  }, 120_000);

  it('end a render whose caller went away, and render the next one', async () => {
    const controller = new AbortController();
    const cancelled = renderInWorker({ data: reportOf(60_000), range, format: 'xlsx', locale: 'en' }, controller.signal);
    setImmediate(() => controller.abort());
    await expect(cancelled).rejects.toBeInstanceOf(RenderCancelled);
    await expect(renderInWorker({ data: reportOf(5), range, format: 'csv', locale: 'en' }, AbortSignal.abort())).rejects.toBeInstanceOf(RenderCancelled);
    const next = await renderInWorker({ data: reportOf(5), range, format: 'csv', locale: 'en' });
    expect(next.content.toString('utf8').split('\r\n')).toHaveLength(1 + 5 + 1); // header, rows, the empty tail after the last CRLF
  }, 120_000);
});

// `npm run bench:export [-- --rows 24000]`: a report of many rows rendered as XLSX and CSV, in place
// (as "Export" and "Generate" did before) and in a worker thread (server/reports/renderInWorker.ts, as
// they do now), while a 5 ms timer measures how long the event loop is held meanwhile (every other
// request waits that long). Writes docs/benchmarks.md between <!-- export:start/end -->.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { renderReport } from '../server/reports/generate';
import { renderInWorker } from '../server/reports/renderInWorker';
import { longestStall } from '../tests/timing/longestStall';
import type { ReportData } from '../server/reports/query';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '24000' }, dry: { type: 'boolean', default: false } } });
const count = Number(values.rows);
const reasons = [1, 2, 3, 4, 5, 6, 7, 101];
const data: ReportData = {
  report: 'barcodeRejects',
  rows: Array.from({ length: count }, (_, index) => ({
    time: new Date(Date.UTC(2026, 9, 1) + index * 60_000).toISOString(),
    termNo: `RVM${String(index % 200).padStart(4, '0')}`,
    fleetName: `Fleet ${index % 7}`,
    barcode: String(4_891_234_000_000 + index),
    itemType: index % 2 ? 'can' : 'pet',
    reason: reasons[index % reasons.length],
  })),
  total: count,
  totals: {},
  chart: [],
};
const range = { from: new Date(Date.UTC(2026, 9, 1)), to: new Date(Date.UTC(2026, 9, 31)), utcOffsetMinutes: 480 };

type Where = 'in place' | 'worker';
const render = (where: Where, report: ReportData, format: 'xlsx' | 'csv') =>
  where === 'worker' ? renderInWorker({ data: report, range, format, locale: 'en' }) : renderReport(report, range, format, 'en');

const measure = async (where: Where, format: 'xlsx' | 'csv') => {
  await render(where, { ...data, rows: data.rows.slice(0, 200) }, format); // warm-up (and a started thread)
  const { result: file, took, longest } = await longestStall(() => render(where, data, format));
  return { where, format, took, longest, bytes: file.content.length };
};

const load = loadavg()[0];
const results = [];
for (const format of ['xlsx', 'csv'] as const) for (const where of ['in place', 'worker'] as const) results.push(await measure(where, format));
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16)} UTC, \`npm run bench:export -- --rows ${count}\`, ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, load ${load.toFixed(1)}.`,
  '',
  '| format | rendered | rows | render (ms) | longest stall of the event loop (ms) | stall / render | file (bytes) |',
  '|---|---|---:|---:|---:|---:|---:|',
  ...results.map(
    (result) =>
      `| ${result.format} | ${result.where} | ${count} | ${Math.round(result.took)} | ${Math.round(result.longest)} | ${(result.longest / result.took).toFixed(2)} | ${result.bytes} |`,
  ),
];
console.log(lines.join('\n'));
if (!values.dry) {
  const file = 'docs/benchmarks.md';
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const block = `<!-- export:start -->\n${lines.join('\n')}\n<!-- export:end -->`;
  const next = text.includes('<!-- export:start -->')
    ? text.replace(/<!-- export:start -->[\s\S]*?<!-- export:end -->/, block)
    : `${text.trimEnd()}\n\n## Export rendering\n\n${block}\n`;
  writeFileSync(file, next);
}

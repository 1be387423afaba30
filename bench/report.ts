// docs/benchmarks.md from the benchmark's measurements.
import type { SeedSummary } from '../server/seed/demoFleet';

export interface Measured {
  name: string;
  call: string;
  p50: number;
  p95: number;
  max: number;
}

const TARGET_MS = 100;
const ms = (value: number) => value.toFixed(1);
const thousands = (value: number) => value.toLocaleString('en');

export const renderReport = (input: {
  results: Measured[];
  runs: number;
  sizes: Record<string, number>;
  databaseSize: string;
  seeded: (SeedSummary & { machinesRequested: number; days: number }) | null;
  environment: string;
}) => {
  const slow = input.results.filter((result) => result.p95 >= TARGET_MS);
  const seed = input.seeded
    ? `${input.seeded.machinesRequested} machines over ${input.seeded.days} days seeded in ${(input.seeded.elapsedMs / 1000).toFixed(0)} s ` +
      `(${thousands(input.seeded.sessions)} consumer sessions, ${thousands(input.seeded.items)} items, ${thousands(input.seeded.statusIntervals)} status intervals, ` +
      `${thousands(input.seeded.events)} events, ${thousands(input.seeded.serviceSessions)} service sessions; bulk mode ${input.seeded.bulkMode ? 'on' : 'off'}).`
    : 'not measured in this run (the fleet was reused).';
  return [
    '# Benchmarks',
    '',
    "Written by `npm run bench` (bench/run.ts): server-side latency of the installation screens' calls,",
    `measured with \`app.inject\` (no network), ${input.runs} runs each after 3 warm-up calls, on PostgreSQL.`,
    `Target: every call under ${TARGET_MS} ms.`,
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Environment: ${input.environment}`,
    `- Data: ${Object.entries(input.sizes)
      .map(([table, rows]) => `${table} ${thousands(rows)}`)
      .join(', ')}; database ${input.databaseSize}`,
    `- Seed: ${seed}`,
    '',
    '| Call | Case | p50 (ms) | p95 (ms) | max (ms) |',
    '|---|---|---:|---:|---:|',
    ...input.results.map((result) => `| \`${result.call}\` | ${result.name} | ${ms(result.p50)} | ${ms(result.p95)} | ${ms(result.max)} |`),
    '',
    slow.length ? `Over target (p95): ${slow.map((result) => result.name).join(', ')}.` : `Every call is under ${TARGET_MS} ms at p95.`,
    '',
  ].join('\n');
};

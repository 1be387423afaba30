// `npx tsx bench/containsParts.ts [database] [--serial]`: where the time of a 2-character contains goes at 100,000 machines
// (docs/benchmarks.md, "Contains with 2 characters"): `count(*)` of the condition the server sends and of its parts,
// interleaved round by round so a load that drifts weighs on each alike. Needs rvm_bench_100k (`npm run bench:search` seeds it
// and, through the server's start, adds the lower-case copy `address__folded` and its 2-character index, server/db/foldedColumns.ts).
import pg from 'pg';

// `--serial`: no parallel workers (what each statement gets when the server's other statements keep the cores busy)
const serial = process.argv.includes('--serial');
const database = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'rvm_bench_100k';
const url = new URL(process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test');
url.pathname = `/${database}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
if (serial) await client.query('set max_parallel_workers_per_gather = 0');
const conditions: Record<string, string> = {
  'none: read the rows (`count(*)`)': `$1::text is not null`,
  '`strpos(address, $1) > 0` (case-sensitive)': `strpos(address, $1) > 0`,
  '`address ~* $1` (regular expression, case-insensitive)': `address ~* $1`,
  '`strpos(lower(address), lower($1)) > 0` (what the server sent before the lower-case copy)': `strpos(lower(address), lower($1)) > 0`,
  '`strpos(address__folded, lower($1)) > 0` (the stored lower-case copy)': `strpos(address__folded, lower($1)) > 0`,
  "the copy's 2-character index, then the substring test on every row (what the server sends)": `contains_bigrams(address__folded) @> contains_bigrams(lower($1)) and strpos(address__folded, lower($1)) > 0`,
  "the copy's 2-character index, the substring test only for a lower case longer than 2 (tried, not used: see docs/benchmarks.md)": `contains_bigrams(address__folded) @> contains_bigrams(lower($1)) and (char_length(lower($1)) = 2 or strpos(address__folded, lower($1)) > 0)`,
};
const names = Object.keys(conditions);
const times = new Map<string, number[]>(names.map((name) => [name, []]));
const WARM_UP = 3;
for (let round = 0; round < 25; round++) {
  for (let index = 0; index < names.length; index++) {
    const name = names[(index + round) % names.length];
    const started = performance.now();
    await client.query(`select count(*) from rvm where ${conditions[name]}`, ['po']);
    if (round >= WARM_UP) times.get(name)!.push(performance.now() - started);
  }
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
console.log('| condition | p50 | p95 |\n|---|---:|---:|');
for (const name of names) console.log(`| ${name} | ${quantile(times.get(name)!, 0.5).toFixed(1)} | ${quantile(times.get(name)!, 0.95).toFixed(1)} |`);
await client.end();

// `npm run bench:hash [-- --runs 9]` (also a step of `npm run bench`): one password hash with each of
// OWASP's equivalent-strength scrypt sets (server/auth/passwords.ts), the server's own code (node's
// async scrypt on the libuv pool), one at a time: median and spread of the runs, memory per hash.
// Budget: ≤ 250 ms and ≤ 64 MiB per hash. Writes docs/benchmarks.md between <!-- hash:start/end -->.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createPasswordHasher, OWASP_SCRYPT_PARALLELISM, scryptMemory, scryptParametersFor } from '../server/auth/passwords';
import { DEFAULT_CONFIG } from '../server/config';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, dry: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const BUDGET_MS = 250;
const BUDGET_BYTES = 64 * 1024 * 1024;
const MiB = 1024 * 1024;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const loadBefore = loadavg()[0];
const rows: string[] = [];
for (const logN of Object.keys(OWASP_SCRYPT_PARALLELISM)
  .map(Number)
  .sort((a, b) => b - a)) {
  const hasher = createPasswordHasher(logN);
  const parameters = scryptParametersFor(logN);
  await hasher.hash('warm-up#1');
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await hasher.hash(`Password#${run}`);
    const cpu = process.cpuUsage(cpuStarted);
    times.push(performance.now() - started);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const median = percentile(times, 50);
  const cpuMedian = percentile(cpuTimes, 50);
  const memory = scryptMemory(parameters);
  // The budget is judged on CPU time: under load, wall time is mostly waiting for a core.
  const fits = cpuMedian <= BUDGET_MS && memory <= BUDGET_BYTES + 64 * 1024;
  const chosen = logN === DEFAULT_CONFIG.passwordHashLogN ? ' **(default)**' : '';
  rows.push(
    `| N=2^${logN}, r=${parameters.r}, p=${parameters.p}${chosen} | ${(memory / MiB).toFixed(1)} | ${cpuMedian.toFixed(0)} | ${median.toFixed(0)} | ${times[0].toFixed(0)} – ${times[times.length - 1].toFixed(0)} | ${fits ? 'yes' : 'no'} |`,
  );
  console.log(
    `[bench:hash] N=2^${logN} r=${parameters.r} p=${parameters.p}: CPU median ${cpuMedian.toFixed(0)} ms, wall median ${median.toFixed(0)} ms (${times.map((time) => time.toFixed(0)).join(' ')}), ${(memory / MiB).toFixed(1)} MiB`,
  );
}
const loadAfter = loadavg()[0];

const section = [
  '<!-- hash:start -->',
  '## Password hashing (scrypt)',
  '',
  `Written by \`npm run bench:hash -- --runs ${runs}\` (bench/hash.ts, a step of \`npm run bench\`): one hash at a time with the server's hasher`,
  `(node's async scrypt, libuv pool), ${runs} runs after a warm-up per set; OWASP's equivalent-strength sets. Budget: ≤ ${BUDGET_MS} ms and ≤ 64 MiB a hash.`,
  "CPU time is the process's user + system time during the hash (what it costs a free core); wall time includes waiting for a core on a loaded machine.",
  `The server uses PASSWORD_HASH_LOG_N=${DEFAULT_CONFIG.passwordHashLogN} by default; older hashes are re-hashed at the next successful sign-in.`,
  '',
  `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `- Environment: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (other work on the machine)`,
  '',
  '| set | memory (MiB) | CPU time, median (ms) | wall time, median (ms) | wall min – max (ms) | within budget (CPU time) |',
  '|---|---:|---:|---:|---:|---|',
  ...rows,
  '<!-- hash:end -->',
].join('\n');
console.log(`\n${section}`);
if (!values.dry) {
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '# Benchmarks\n';
  const next = previous.includes('<!-- hash:start -->') ? previous.replace(/<!-- hash:start -->[\s\S]*<!-- hash:end -->/, section) : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
}

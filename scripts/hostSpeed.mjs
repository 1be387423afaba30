// How fast this machine is right now, against the quiet machine the test budget was written on
// (docs/test-quality.md, "Time budget: the host's speed"). CI shares its machine: the same commit took
// 22–24 minutes on quiet days and 40–45 on busy ones, every file slower by about the same factor. .ci/run
// times a fixed piece of work on both cores before and after the tests; scripts/testBudget.ts divides the
// projects' times by how much slower than the reference the host was, so the budget fails when the suite
// grows, not when the host is busy.
//
//   node scripts/hostSpeed.mjs --label before [--rounds 9]    appends one measurement to .host-speed.json
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

export const hostSpeedFile = '.host-speed.json';
/** Both cores work at once, as the suite's two vitest runs do. */
const WORKERS = 2;
const ROUNDS = 9;
/** Calls of the fixed work in one round: about half a second on the quiet reference machine. */
const CALLS_PER_ROUND = 5;

/** @typedef {{ label: string, seconds: number, rounds: number[], at: string }} HostSpeedSample
 *  seconds: the median round, each round as long as its slower core took for one fixed piece of work. */

/** A fixed piece of what the tests spend their time on: objects, JSON, sorting, text, hashing. */
export function fixedWork() {
  const machines = Array.from({ length: 30_000 }, (_, index) => ({
    id: index,
    name: `machine-${(index * 7919) % 30_000}`,
    tags: ['cans', 'bottles', `fleet-${index % 40}`],
    weight: index * 1.5,
  }));
  const text = JSON.stringify(machines);
  const parsed = JSON.parse(text);
  parsed.sort((a, b) => a.name.localeCompare(b.name));
  const replaced = text.replace(/machine-(\d+)/g, (_, digits) => `rvm-${digits.length}`);
  const counts = new Map();
  for (const machine of parsed) for (const tag of machine.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const digest = createHash('sha256').update(replaced).digest();
  return parsed[0].id + counts.size + digest[0];
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs the work on every core at once, round after round; a round lasts as long as its slowest core. */
/** @returns {Promise<HostSpeedSample>} */
export async function measureHostSpeed(label, rounds = ROUNDS) {
  const workers = Array.from({ length: WORKERS }, () => new Worker(fileURLToPath(import.meta.url), { workerData: { rounds } }));
  const perWorker = await Promise.all(
    workers.map(
      (worker) =>
        new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  await Promise.all(workers.map((worker) => worker.terminate()));
  const roundSeconds = Array.from({ length: rounds }, (_, round) => Math.max(...perWorker.map((seconds) => seconds[round])));
  return { label, seconds: Math.round(median(roundSeconds) * 1000) / 1000, rounds: roundSeconds.map((seconds) => Math.round(seconds * 1000) / 1000), at: new Date().toISOString() };
}

if (!isMainThread) {
  for (let call = 0; call < CALLS_PER_ROUND; call++) fixedWork(); // a round to compile and size the heap, not timed
  const seconds = [];
  for (let round = 0; round < workerData.rounds; round++) {
    const started = performance.now();
    for (let call = 0; call < CALLS_PER_ROUND; call++) fixedWork();
    seconds.push((performance.now() - started) / 1000);
  }
  parentPort?.postMessage(seconds);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const labelIndex = process.argv.indexOf('--label');
  const roundsIndex = process.argv.indexOf('--rounds');
  const label = labelIndex >= 0 ? process.argv[labelIndex + 1] : 'manual';
  const sample = await measureHostSpeed(label, roundsIndex >= 0 ? Number(process.argv[roundsIndex + 1]) : ROUNDS);
  const samples = existsSync(hostSpeedFile) ? JSON.parse(readFileSync(hostSpeedFile, 'utf8')) : [];
  writeFileSync(hostSpeedFile, JSON.stringify([...samples, sample], null, 1));
  console.log(`host speed (${label}): ${sample.seconds} s a round on ${WORKERS} cores (rounds ${sample.rounds.join(', ')})`);
}

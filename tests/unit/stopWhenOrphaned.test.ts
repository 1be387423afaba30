// `npm start` must not outlive npm (issue 29: a killed `npm start` kept the server's port): a process
// watching with scripts/stopWhenOrphaned.mjs ends once its parent is gone; one whose parent lives goes on.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WATCHER = join(process.cwd(), 'scripts', 'stopWhenOrphaned.mjs');
// The grandchild: watches, keeps running, says its pid, and exits 7 when orphaned.
const GRANDCHILD = `import(${JSON.stringify(WATCHER)}).then(({ stopWhenOrphaned }) => { stopWhenOrphaned(() => process.exit(7), 100); console.log(process.pid); setInterval(() => undefined, 1000); })`;

/** Running, not a zombie waiting for PID 1 to reap it (Linux /proc; elsewhere signal 0). */
const alive = (pid: number) => {
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * npm's arrangement: a wrapper (npm) runs a shell that runs the watcher and waits. Answers the wrapper's,
 * the shell's and the watcher's pids. `direct`: the watcher is the wrapper's own child (no shell between).
 */
const family = (direct: boolean) =>
  new Promise<{ wrapper: number; child: number }>((resolve, reject) => {
    const watcher = `"${process.execPath}" --input-type=module -e '${GRANDCHILD}'`;
    const command = direct ? `${watcher} & wait` : `sh -c "${watcher.replace(/"/g, '\\"')}" & wait`;
    const wrapper = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
    wrapper.once('error', reject);
    wrapper.stdout.once('data', (chunk: Buffer) => resolve({ wrapper: wrapper.pid!, child: Number(chunk.toString().trim()) }));
  });

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('stopWhenOrphaned', () => {
  it.each([
    ['its parent', true],
    ['the wrapper above its shell (npm above `sh -c`)', false],
  ] as const)(
    'ends a process when %s was killed, and leaves it while it lives',
    async (_what, direct) => {
      const { wrapper: parent, child } = await family(direct);
      try {
        expect(alive(child)).toBe(true);
        // A negative check (nothing may happen), so a pause, not a condition: the watcher polls every 100 ms,
        // and with its parent alive it is still there after several polls (on a busy machine, after fewer).
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(alive(child)).toBe(true);
        process.kill(parent, 'SIGKILL'); // as a killed npm: nothing is forwarded
        await until(() => !alive(child), 'the orphaned watcher ends');
      } finally {
        if (alive(child)) process.kill(child, 'SIGKILL');
      }
    },
    30_000,
  );
});

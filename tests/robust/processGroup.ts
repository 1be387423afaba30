// A Chromium started by hand (a DevTools port for Lighthouse) runs helper processes that outlive its main one and keep
// writing into its profile folder: whoever removes that folder first ends the whole process group and waits for it.
// Used by tests/e2e/lighthouse.test.ts and bench/frontend.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Whether a process of the group still runs. On Linux from /proc, leaving out zombies: an ended process whose parent
 * has died waits there until PID 1 reaps it, which in a container may take a while, and it writes nothing. Elsewhere
 * signal 0 (which counts zombies too).
 */
export const groupAlive = (pgid: number): boolean => {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      return false; // ended while the folder was read
    }
    // after the command's closing parenthesis: state, parent, process group (proc(5))
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(group) === pgid && state !== 'Z' && state !== 'X';
  });
};

/**
 * Ends every process of a group (a child spawned with `detached: true`: its pid is the group's id): SIGTERM, and
 * SIGKILL to what is left after `timeoutMs`; each waits, bounded by `timeoutMs`, until none is left.
 */
export const endProcessGroup = async (pgid: number, timeoutMs: number): Promise<void> => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    if (!groupAlive(pgid)) return;
    try {
      process.kill(-pgid, signal);
    } catch {
      return; // the last one ended in between
    }
    const deadline = Date.now() + timeoutMs;
    // the polling interval of a condition (all gone yet?), not a sleep standing in for one
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

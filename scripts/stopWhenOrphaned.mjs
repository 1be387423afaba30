// A process started by a wrapper (npm) that must not outlive it. npm runs a script through a shell
// (`sh -c node scripts/start.mjs`), which stays between the two, so a killed npm leaves the shell and
// this process running and the ports taken. On Linux the chain of parents is read from /proc at start
// (this process's parent and that one's parent); when a link changes (a parent re-parented or gone),
// `onOrphaned` runs (start.mjs sends itself SIGTERM: the server shuts down as on Ctrl-C). Elsewhere
// only the direct parent is watched.
import { readFileSync } from 'node:fs';

/** The parent of `pid` from /proc, or null where /proc cannot say (another system, a process gone). */
const parentOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
};

export const stopWhenOrphaned = (onOrphaned, intervalMs = 1000) => {
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  const watch = setInterval(() => {
    const orphaned = process.ppid !== parent || (grandparent !== null && grandparent > 1 && parentOf(parent) !== grandparent);
    if (!orphaned) return;
    clearInterval(watch);
    onOrphaned();
  }, intervalMs);
  watch.unref();
  return () => clearInterval(watch);
};

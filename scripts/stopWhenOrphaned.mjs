// A process started by a wrapper (npm) that must not outlive it: when the wrapper goes away this
// process is handed to another parent, which a poll of `process.ppid` notices; then `onOrphaned` runs
// (start.mjs sends itself SIGTERM, so the server shuts down as on Ctrl-C and frees its ports).
export const stopWhenOrphaned = (onOrphaned, intervalMs = 1000) => {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    onOrphaned();
  }, intervalMs);
  watch.unref();
  return () => clearInterval(watch);
};

// How long the event loop was held while `work` ran: a 5 ms timer ticks meanwhile, and the longest gap
// between ticks (or from the last tick to the end) is the longest that any other request had to wait.
// Used by tests/server/reportRender.test.ts and bench/exportRender.ts.
export const longestStall = async <T>(work: () => Promise<T>): Promise<{ result: T; longest: number; took: number }> => {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    return { result, longest: Math.max(longest, performance.now() - last), took: performance.now() - started };
  } finally {
    clearInterval(ticker);
  }
};

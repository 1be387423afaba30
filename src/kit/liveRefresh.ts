// How often the screens that show what machines report load it again by themselves while the browser
// tab is shown (docs/fleet.md "Live pages"): bounded so an open page costs the server a few requests a
// minute. The machine list's own figure is its declaration's `list.refreshSeconds` (resources/machine.ts).
export const LIVE_REFRESH_MS = {
  /** The machine page's title line: status and state. */
  machineHeader: 15_000,
  /** The home dashboard's cards and charts. */
  dashboard: 30_000,
  /** The fleet tree's machine and down counts. */
  fleetTree: 30_000,
} as const;

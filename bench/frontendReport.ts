// docs/benchmarks.md's front-end section from bench/frontend.ts's measurements.
import type { LighthouseFigures, TrafficSummary } from './frontendBrowser';

export interface LoadFigures {
  /** cold load, the requests made before the screen's data arrived (all of them for the login) */
  usable: TrafficSummary;
  /** cold load, everything until the network was quiet */
  loaded: TrafficSummary;
  /** reload in the same context */
  warm: TrafficSummary;
  coldLcp: number;
  warmLcp: number;
  usableMs: number;
  runs: number;
}

export interface AreaFigures {
  name: string;
  path: string;
  traffic: TrafficSummary;
}

const LOGIN_GOAL = 150_000;
const HOME_GOAL = 300_000;
const LIGHTHOUSE_GOAL = 95;

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];

const bytesRow = (label: string, traffic: TrafficSummary) =>
  `| ${label} | ${traffic.requests} | ${traffic.jsFiles} | ${kB(traffic.jsGzip)} | ${kB(traffic.jsEncoded)} | ${kB(traffic.jsDecoded)} | ${kB(traffic.cssEncoded)} / ${kB(traffic.cssDecoded)} | ${kB(traffic.totalEncoded)} | ${kB(traffic.totalDecoded)} |`;

const goal = (value: number, limit: number) => (value <= limit ? `met (${kB(value)} ≤ ${kB(limit)})` : `NOT met (${kB(value)} > ${kB(limit)})`);

export const renderFrontendSection = (input: {
  loads: Record<string, LoadFigures>;
  areas: AreaFigures[];
  lighthouse: Record<string, Record<'desktop' | 'mobile', LighthouseFigures[]>>;
  environment: string;
  runs: number;
  lighthouseRuns: number;
}) => {
  const { loads } = input;
  const lighthouseRows = Object.entries(input.lighthouse).flatMap(([page, byForm]) =>
    (['desktop', 'mobile'] as const).map((formFactor) => {
      const runs = byForm[formFactor];
      const pick = (key: keyof Omit<LighthouseFigures, 'finalUrl'>) => median(runs.map((run) => run[key]));
      return `| ${page} | ${formFactor} | **${pick('score')}** (${runs.map((run) => `${run.score} @ ${run.load.toFixed(1)}`).join(', ')}) | ${ms(pick('fcp'))} | ${ms(pick('lcp'))} | ${ms(pick('tbt'))} | ${pick('cls').toFixed(3)} | ${ms(pick('speedIndex'))} |`;
    }),
  );
  const desktopScores = Object.values(input.lighthouse).map((byForm) => median(byForm.desktop.map((run) => run.score)));
  const loginJs = Math.max(loads['login-en'].usable.jsGzip, loads['login-zh'].usable.jsGzip);
  const homeJs = Math.max(loads['home-en'].usable.jsGzip, loads['home-zh'].usable.jsGzip);
  return [
    '<!-- frontend:start -->',
    '## Front end: bytes, LCP and Lighthouse per screen (issue 8)',
    '',
    'Written by `npm run bench:frontend` (bench/frontend.ts; the last step of `npm run bench`): a production build of the',
    'console (`NODE_ENV=production npx vite build --outDir <tmp>`) served by the real server (`node --import tsx server/server.ts`',
    'in a child process, PGlite, demo fleet), driven by headless Chromium through playwright-core. Bytes come from the',
    'DevTools protocol (`Network.loadingFinished.encodedDataLength`: what crossed the wire, headers included, brotli for',
    'the assets; decoded = body bytes after decompression), except "JS gzip", the gzip -9 size of the same scripts (the',
    "build's `.gz` files: the unit of the issue's goals). Browser window 1440×900.",
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Environment: ${input.environment}`,
    `- Goals: login ≤ 150 kB of gzipped JS: ${goal(loginJs, LOGIN_GOAL)}; home ≤ 300 kB until its cards are usable (both languages): ${goal(homeJs, HOME_GOAL)}; ` +
      `Lighthouse performance ≥ ${LIGHTHOUSE_GOAL} (desktop): ${desktopScores.every((score) => score >= LIGHTHOUSE_GOAL) ? 'met' : 'NOT met'} (${desktopScores.join(', ')}).`,
    '',
    '### Bytes per screen, cold cache (kB = 1000 bytes)',
    '',
    '| screen | requests | JS files | JS gzip | JS transferred | JS decoded | CSS transferred / decoded | total transferred | total decoded |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...(['en', 'zh'] as const).flatMap((lang) => [
      bytesRow(`login (${lang})`, loads[`login-${lang}`].usable),
      bytesRow(`home (${lang}), cards usable (requested before \`GET /dashboard\` answered)`, loads[`home-${lang}`].usable),
      bytesRow(`home (${lang}), with charts, network quiet`, loads[`home-${lang}`].loaded),
    ]),
    '',
    'First visit of each menu area with a screen, right after a cold home load (in-app navigation; what the area adds):',
    '',
    '| area (route) | requests | JS files | JS gzip | JS transferred | JS decoded | CSS transferred / decoded | total transferred | total decoded |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...input.areas.map((area) => bytesRow(`${area.name} (\`${area.path.replace(/\/\d+$/, '/:id')}\`)`, area.traffic)),
    '',
    `Scripts of the login page: ${loads['login-en'].usable.scripts.join(', ')}.`,
    '',
    `### LCP, cold and warm (median of ${input.runs} runs, ms)`,
    '',
    'Cold: a new browser context (empty cache). Warm: a reload in the same context. "Sent to the server" counts the',
    "warm reload's requests that were not answered from the browser cache; 304 = revalidations among them.",
    '',
    '| page | LCP cold | LCP warm | cold: usable after (ms) | warm: requests | warm: from cache | warm: sent to the server | warm: 304 | warm: transferred (kB) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(loads).map(
      ([name, load]) =>
        `| ${name} | ${ms(load.coldLcp)} | ${ms(load.warmLcp)} | ${ms(load.usableMs)} | ${load.warm.requests} | ${load.warm.fromCache} | ${load.warm.requests - load.warm.fromCache} | ${load.warm.revalidated} | ${kB(load.warm.totalEncoded)} |`,
    ),
    '',
    `### Lighthouse performance (median of ${input.lighthouseRuns} runs; in brackets every run's score @ the machine's 1-minute load average)`,
    '',
    `Lighthouse ${'(the npm package)'} against Debian's Chromium (its own instance with a DevTools port), category performance only,`,
    'simulated throttling: desktop = its desktop preset (40 ms RTT, 10 Mbit/s, no CPU slowdown), mobile = its defaults',
    '(slow 4G, 4× CPU slowdown, small screen). Login: storage reset. Home: signed in by a page of the same browser,',
    'the session kept (`disableStorageReset`) and the HTTP cache cleared before each run (a cold load).',
    '',
    '| page | form factor | score | FCP (ms) | LCP (ms) | TBT (ms) | CLS | Speed Index (ms) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...lighthouseRows,
    '',
    '### Before',
    '',
    'Static figures (JavaScript a screen needs: the static-import closure of its chunks, gzip -9), measured by helper A:',
    'before = the build of commit 6a198e0 (one bundle, sent uncompressed, `max-age=0`: every asset revalidated on each',
    'load); "A" = the light entry and area chunks before crypto-js was loaded lazily and node-polyglot\'s `object.entries`',
    'shim replaced by the built-in.',
    '',
    '| screen | before (kB gz) | A (kB gz) |',
    '|---|---:|---:|',
    '| login | 439.8 (the whole console) | 150.6 |',
    '| home dashboard, cards usable (en / zh) | 566.0 | 299.7 / 301.2 |',
    '| home dashboard with its charts | 566.0 | 424.8 |',
    '<!-- frontend:end -->',
  ].join('\n');
};

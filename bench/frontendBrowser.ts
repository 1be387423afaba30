// Browser-side measurements of bench/frontend.ts: what a page transfers (Chrome DevTools Protocol
// network events, so compressed bytes are what went over the wire), its Largest Contentful Paint, and
// Lighthouse's performance category. Every wait is on a condition with a deadline.
import { readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import type { Page } from 'playwright-core';

export interface Transfer {
  url: string;
  type: string;
  status: number;
  /** bytes received over the network (headers included, compressed body); 0 when served from the cache */
  encoded: number;
  /** body bytes after decompression */
  decoded: number;
  fromCache: boolean;
  finished: boolean;
  /** how many requests had been made when this one finished */
  finishedAtOrder: number;
}

export interface TrafficSummary {
  requests: number;
  jsFiles: number;
  jsEncoded: number;
  jsDecoded: number;
  /** gzip -9 size of the scripts loaded (the build's .gz files): the unit of issue 8's goals */
  jsGzip: number;
  cssEncoded: number;
  cssDecoded: number;
  totalEncoded: number;
  totalDecoded: number;
  /** answered 304 (a revalidation that reached the server) */
  revalidated: number;
  fromCache: number;
  scripts: string[];
}

/** Records every request of a page over CDP; `summary(since)` sums the requests made after a mark. */
export const recordTraffic = async (page: Page, buildDir: string) => {
  const session = await page.context().newCDPSession(page);
  const transfers = new Map<string, Transfer & { order: number }>();
  const streaming = new Set<string>();
  let order = 0;
  session.on('Network.requestWillBeSent', (event) => {
    // a redirect reuses the request id: the new hop replaces the old one
    transfers.set(event.requestId, {
      url: event.request.url,
      type: event.type ?? 'Other',
      status: 0,
      encoded: 0,
      decoded: 0,
      fromCache: false,
      finished: false,
      finishedAtOrder: 0,
      order: order++,
    });
  });
  session.on('Network.requestServedFromCache', (event) => {
    const transfer = transfers.get(event.requestId);
    if (transfer) transfer.fromCache = true;
  });
  session.on('Network.responseReceived', (event) => {
    const transfer = transfers.get(event.requestId);
    if (!transfer) return;
    transfer.status = event.response.status;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) transfer.fromCache = true;
    // a server-sent event stream never finishes: it does not hold the page "busy"
    if (event.response.mimeType === 'text/event-stream') streaming.add(event.requestId);
  });
  session.on('Network.dataReceived', (event) => {
    const transfer = transfers.get(event.requestId);
    if (transfer) transfer.decoded += event.dataLength;
  });
  const finish = (requestId: string, encoded: number) => {
    const transfer = transfers.get(requestId);
    if (!transfer) return;
    transfer.finished = true;
    transfer.finishedAtOrder = order;
    transfer.encoded = encoded;
  };
  session.on('Network.loadingFinished', (event) => finish(event.requestId, event.encodedDataLength));
  session.on('Network.loadingFailed', (event) => finish(event.requestId, 0));
  await session.send('Network.enable');

  const gzipOf = (url: string) => {
    const path = new URL(url).pathname;
    try {
      return statSync(join(buildDir, `${path}.gz`)).size;
    } catch {
      return 0;
    }
  };

  const inFlight = () => [...transfers.entries()].filter(([id, transfer]) => !transfer.finished && !streaming.has(id) && !transfer.url.startsWith('data:')).length;

  return {
    /** A mark: `summary(mark)` counts only what was requested after it. */
    mark: () => order,
    /** A mark at the moment the first request to a URL matching `pattern` finished (undefined: none yet). */
    markWhenFinished: (pattern: RegExp): number | undefined => [...transfers.values()].find((transfer) => transfer.finished && pattern.test(transfer.url))?.finishedAtOrder,
    /** What the page fetched (and finished) between two marks. */
    summary(from = 0, to = Number.POSITIVE_INFINITY): TrafficSummary {
      const list = [...transfers.values()].filter((transfer) => transfer.order >= from && transfer.order < to && transfer.finished && !transfer.url.startsWith('data:'));
      const scripts = list.filter((transfer) => transfer.type === 'Script');
      const sheets = list.filter((transfer) => transfer.type === 'Stylesheet');
      const sum = (items: Transfer[], key: 'encoded' | 'decoded') => items.reduce((total, item) => total + item[key], 0);
      return {
        requests: list.length,
        jsFiles: scripts.length,
        jsEncoded: sum(scripts, 'encoded'),
        jsDecoded: sum(scripts, 'decoded'),
        jsGzip: scripts.reduce((total, script) => total + gzipOf(script.url), 0),
        cssEncoded: sum(sheets, 'encoded'),
        cssDecoded: sum(sheets, 'decoded'),
        totalEncoded: sum(list, 'encoded'),
        totalDecoded: sum(list, 'decoded'),
        revalidated: list.filter((transfer) => transfer.status === 304).length,
        fromCache: list.filter((transfer) => transfer.fromCache).length,
        scripts: scripts.map((script) => new URL(script.url).pathname.replace('/assets/', '')),
      };
    },
    /** Resolves when no request (event streams aside) has been in flight for `quietMs`. */
    async quiet(quietMs: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      let quietSince = Date.now();
      for (;;) {
        if (inFlight() > 0) quietSince = Date.now();
        else if (Date.now() - quietSince >= quietMs) return;
        if (Date.now() > deadline) throw new Error(`network still busy after ${timeoutMs} ms (${inFlight()} requests in flight)`);
        // polling interval of the condition "nothing in flight", not a sleep standing in for it
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    detach: () => session.detach(),
  };
};

/** The page's Largest Contentful Paint so far (ms since navigation start), from the buffered entries. */
export const largestContentfulPaint = (page: Page): Promise<number | null> =>
  page.evaluate(
    () =>
      new Promise<number | null>((resolve) => {
        const observer = new PerformanceObserver((list) => {
          const entries = list.getEntries();
          observer.disconnect();
          resolve(entries.length ? entries[entries.length - 1].startTime : null);
        });
        observer.observe({ type: 'largest-contentful-paint', buffered: true });
        // buffered entries are delivered at once; a page without any answers null
        setTimeout(() => resolve(null), 1_000);
      }),
  );

export interface LighthouseFigures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  finalUrl: string;
  /** the machine's 1-minute load average when the run ended (a shared 2-core machine: TBT follows it) */
  load: number;
}

/** Lighthouse's performance category for `url`, in the Chromium listening on `port` (desktop or mobile defaults). */
export const lighthousePerformance = async (url: string, port: number, formFactor: 'desktop' | 'mobile', keepStorage: boolean): Promise<LighthouseFigures> => {
  const flags = { port, onlyCategories: ['performance'], logLevel: 'error' as const, disableStorageReset: keepStorage };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    speedIndex: metric('speed-index'),
    finalUrl: lhr.finalDisplayedUrl,
    load: loadavg()[0],
  };
};

/** The version of an installed package (for the environment line). */
export const packageVersion = (root: string, name: string): string => {
  try {
    return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

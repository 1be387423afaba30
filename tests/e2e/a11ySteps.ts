// Accessibility steps shared by the a11y, keyboard and lighthouse suites: axe-core runs (its default rules:
// WCAG 2.0/2.1 A and AA, and best practices) with a readable report, the routes of the menu the signed-in user sees (so a new
// screen is audited as soon as it is in the menu), and waiting until a screen has finished loading.
import type { AxeResults, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page, Request } from 'playwright-core';
import { walkMenu, type MenuNode } from '../../resources/menu';
import type { PermissionHolder } from '../../resources/permissions';
import { permittedTabs } from '../../src/installation/machine/tabs';
import { machinePagePath } from '../../src/pages/machinePaths';
import { visibleMenu } from '../../src/permissions/menuVisibility';
import { canAccessAs } from '../../src/permissions/canAccess';
import { expect } from 'vitest';
import { api, eventually, readStored, shoot, type RunningServer } from './harness';

/**
 * Rules axe marks experimental, so off by default, that the console must pass too: an element's accessible
 * name starts with its visible label (WCAG 2.5.3; a tooltip must describe a labelled button, not name it).
 */
const EXTRA_RULES = { 'label-content-name-mismatch': { enabled: true } } as const;
/** Impacts that fail the suite; moderate and minor ones are reported only. */
export const BLOCKING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);

export interface Violation {
  /** Where it was seen: a screen, a dialog, a language. */
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  /** Per element, what axe found (e.g. the colours and ratio of a contrast failure). */
  details: string[];
}

/**
 * Waits until every transition and finite animation running now has ended (a snackbar sliding in, a dialog
 * fading in): axe blends a half-transparent element with what is under it and reports a contrast the user
 * sees only for a few frames. Endless animations (spinners, skeletons) are left running.
 */
const finishTransitions = (page: Page): Promise<void> =>
  page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });

/** axe-core's browser build, put into a page once (a document keeps it across the console's own navigations). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeWindow = { axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> } };

/**
 * Runs axe-core on the page as it is now, answering every violation found: axe's default rules (WCAG 2.0/2.1 A and AA,
 * and its best practices such as landmarks and heading order) and the extra rule above. axe is put into the document
 * when it is not there yet and then run directly: @axe-core/playwright put its 650 kB into the page again at every
 * analysis and answered every rule's passing nodes too (docs/test-quality.md "Time budget": 97–105 s of axe per
 * language in the sweep, 16 s now); only violations are collected (`resultTypes`), each with all its nodes. The console
 * has no frames to reach into.
 */
export const audit = async (page: Page, where: string): Promise<Violation[]> => {
  await finishTransitions(page);
  if (!(await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (rules) => {
    const results = await (window as AxeWindow).axe!.run(document, { rules, resultTypes: ['violations'] });
    return results.violations;
  }, EXTRA_RULES);
  return violations.map((violation) => ({
    where,
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    details: violation.nodes.map((node) => [...node.any, ...node.all, ...node.none].map((check) => check.message).find(Boolean) ?? ''),
  }));
};

export const blocking = (violations: readonly Violation[]) => violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact));

/** One line per rule and place, then the elements (at most 5 each), for a failure message or a log. */
export const describeViolations = (violations: readonly Violation[]): string =>
  violations
    .map((violation) => {
      const shown = violation.targets.slice(0, 5).map((target, index) => `      ${target}${violation.details[index] ? `\n        ${violation.details[index]}` : ''}`);
      const more = violation.targets.length > 5 ? [`      … and ${violation.targets.length - 5} more`] : [];
      return [`  ${violation.where}: ${violation.rule} (${violation.impact}) ×${violation.targets.length} — ${violation.help}`, ...shown, ...more].join('\n');
    })
    .join('\n');

/** "rule (impact) ×n" per place: the summary table printed by the a11y suite. */
export const summarize = (places: readonly string[], violations: readonly Violation[]): string =>
  places
    .map((place) => {
      const here = violations.filter((violation) => violation.where === place);
      const text = here.length ? here.map((violation) => `${violation.rule} (${violation.impact}) ${violation.targets.length}`).join('; ') : 'none';
      return `  ${place.padEnd(48)} ${text}`;
    })
    .join('\n');

/** Every distinct route of the menu tree the holder sees in the sidebar (docs/product-rules.md#menu-tree), in menu order. */
export const menuRoutes = (holder: PermissionHolder | null): string[] => [...new Set(walkMenu(visibleMenu(holder)).flatMap((node: MenuNode) => (node.route ? [node.route] : [])))];

/** The machine page of one machine, once per tab the holder may open (the tabs are menu nodes too). */
export const machineTabRoutes = (holder: PermissionHolder | null, machineId: number): string[] => permittedTabs(canAccessAs(holder)).map((tab) => machinePagePath(machineId, tab));

/** The signed-in user's permissions as the console stored them at sign-in (what its sidebar is built from). */
export const storedUserInfo = async (page: Page): Promise<PermissionHolder> => {
  const stored = await readStored(page, 'userInfo');
  if (!stored) throw new Error('no userInfo in localStorage: not signed in');
  return JSON.parse(stored) as PermissionHolder;
};

/** API calls under way per watched page (long-lived event streams excluded: they never finish). */
const inFlight = new WeakMap<Page, Set<Request>>();

/** Counts the page's requests from now on, so `settle` can also wait for the screen's data. */
export const watchRequests = (page: Page) => {
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (request) => {
    if (request.headers().accept !== 'text/event-stream') open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
};

/**
 * Client-side navigation (the router follows history changes), as a menu link does: much faster
 * than loading the whole console again for each of the many menu routes. Resolves once the layout
 * shows the address the browser is at (the content area's `data-path` is committed together with
 * the screen; a route that redirects, such as /index, ends on its target).
 */
export const navigateInApp = async (page: Page, path: string) => {
  await page.evaluate((target) => {
    const index = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: `a11y${index}`, idx: index }, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
  await eventually(() => page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="content"]')?.dataset.path === window.location.pathname)).toBe(true);
};

/**
 * Waits until the screen is complete and still: a level-1 heading, no API call under way (on a
 * watched page), no indeterminate progress (react-admin's loading indicator, skeletons, tables
 * loading), fonts loaded and no finite animation or transition running (dialogs fading in, floating
 * labels). Determinate progress bars (bin levels) are content, and endless animations (a spinner's
 * rotation) never end: neither is waited for.
 */
export const settle = async (page: Page) => {
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const requests = inFlight.get(page);
  await eventually(async () => {
    if (requests && requests.size > 0) return false;
    return page.evaluate(() => {
      // a screen shows its heading; behind a forced password change there is no screen, only the dialog
      const headings = [...document.querySelectorAll('h1, [role="dialog"] h2')].filter((heading) => (heading.textContent ?? '').trim() !== '').length;
      const busy = document.querySelectorAll('[role="progressbar"]:not([aria-valuenow]), .MuiSkeleton-root, .RaPlaceholder-root').length;
      const moving = document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity).length;
      return headings > 0 && busy === 0 && moving === 0;
    });
  }).toBe(true);
};

/** The document's language as announced to assistive technology (`<html lang>`). */
export const documentLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** Whether the focused element matches `selector` (inside an element matching it counts too, e.g. a row's cell). */
export const focusIsOn = (page: Page, selector: string) => page.evaluate((wanted) => Boolean(document.activeElement?.closest(wanted)), selector);

/**
 * Presses `key` (Tab by default) until the focus is on an element matching `selector`, at most
 * `limit` times: how a keyboard user gets somewhere. Fails naming where the focus went instead.
 */
export const pressUntilFocused = async (page: Page, selector: string, { key = 'Tab', limit = 150 } = {}) => {
  const visited: string[] = [];
  for (let step = 0; step < limit; step += 1) {
    await page.keyboard.press(key);
    if (await focusIsOn(page, selector)) return;
    visited.push(await describeFocus(page));
  }
  throw new Error(`${key} never reached ${selector} in ${limit} presses; the focus went through:\n  ${visited.join('\n  ')}`);
};

/** The focused element, shortly (tag, role, name), for failure messages. */
export const describeFocus = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '(nothing)';
    const name = element.getAttribute('aria-label') ?? element.getAttribute('name') ?? (element.textContent ?? '').trim().slice(0, 40);
    return `<${element.tagName.toLowerCase()}${element.getAttribute('role') ? ` role=${element.getAttribute('role')}` : ''}> ${name}`;
  });

/**
 * The focused element shows where the focus is: an outline, a ring (box shadow), MUI's
 * focus-visible ripple, or (text fields) the focused underline or outline MUI draws on the field.
 */
export const focusIsVisible = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return false;
    // text fields show their focus however it came (browsers do not report :focus-visible for them reliably)
    if (!element.matches(':focus-visible') && !element.matches('input, textarea')) return false;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const field = element.matches('input, textarea') && Boolean(element.closest('.MuiInputBase-root.Mui-focused'));
    return outline || style.boxShadow !== 'none' || element.classList.contains('Mui-focusVisible') || field;
  });

interface LoginAnswer {
  tokenInfo: { tokenValue: string };
}

/**
 * The seeded admin's forced first change done through the API (the console's walk is signin.test.ts'),
 * then a token signed in with `password`.
 */
export const adminPastForcedChange = async (server: RunningServer, password: string): Promise<string> => {
  const first = await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
  await api(server, 'PUT', `/user/password?password=${encodeURIComponent(password)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
  return (await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password } })).tokenInfo.tokenValue;
};

/**
 * The screen as it is now: settled (`ready`, default `settle`), no serious or critical axe violation, and at each of
 * `widths` (default: the window's own) no page-wide sideways scroll, and a shot (`shoot`, from the top: the header and
 * sidebar are fixed, a full-page shot of a scrolled page draws them mid-page) named `<name>-<width>`. The window's
 * width is given back after.
 */
export const checkScreen = async (page: Page, name: string, { widths, ready = () => settle(page) }: { widths?: readonly number[]; ready?: () => Promise<unknown> } = {}) => {
  await ready();
  const violations = blocking(await audit(page, name));
  expect(violations, describeViolations(violations)).toEqual([]);
  const initial = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of widths ?? [initial.width]) {
    if (width !== page.viewportSize()?.width) {
      await page.setViewportSize({ width, height: initial.height });
      await ready();
    }
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(sizes.scroll, `${name} at ${width} px`).toBeLessThanOrEqual(sizes.client);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, `${name}-${width}`);
  }
  if (page.viewportSize()?.width !== initial.width) await page.setViewportSize(initial);
};

// Only test files that read local time run a second time in New York (vite.config.ts TIME_ZONE_TESTS;
// the first run is in Hong Kong). This probe keeps that list honest: in the Hong Kong run it notes
// whether a file read local time (a Date's local fields, its local text, Intl date formats in the
// default zone) and fails a file that did without being on the list, so new time-dependent code is
// never tested in one zone only (docs/test-quality.md "Time budget").
import { afterAll, expect } from 'vitest';
import { isTimeZoneTest } from '../timing/timeZoneTests.js';

const PROBED = Symbol.for('rvm.localTimeProbe');
interface ProbeState {
  touched: string | null;
}

const globalState = globalThis as typeof globalThis & { [PROBED]?: ProbeState };
const state: ProbeState = globalState[PROBED] ?? (globalState[PROBED] = { touched: null });

if (process.env.TZ_PROBE === 'on' && !Object.hasOwn(Date.prototype, PROBED)) {
  Object.defineProperty(Date.prototype, PROBED, { value: true });
  const LOCAL = [
    'getFullYear',
    'getMonth',
    'getDate',
    'getDay',
    'getHours',
    'getMinutes',
    'getTimezoneOffset',
    'setFullYear',
    'setMonth',
    'setDate',
    'setHours',
    'setMinutes',
    'toString',
    'toDateString',
    'toTimeString',
    'toLocaleString',
    'toLocaleDateString',
    'toLocaleTimeString',
  ] as const;
  for (const name of LOCAL) {
    const original = Date.prototype[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(Date.prototype, name, {
      configurable: true,
      writable: true,
      value(this: Date, ...args: unknown[]) {
        state.touched ??= `Date.prototype.${name}`;
        return original.apply(this, args);
      },
    });
  }
  const OriginalFormat = Intl.DateTimeFormat;
  const probedFormat = function (this: unknown, locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
    if (!options?.timeZone) state.touched ??= 'Intl.DateTimeFormat in the default zone';
    return new OriginalFormat(locales, options);
  } as unknown as typeof Intl.DateTimeFormat;
  Object.assign(probedFormat, OriginalFormat);
  Object.defineProperty(probedFormat, 'prototype', { value: OriginalFormat.prototype });
  Intl.DateTimeFormat = probedFormat;
}

// A setup file runs again before each test file: what the file reads from here on (its imports too) counts.
state.touched = null;

afterAll(() => {
  const file = expect.getState().testPath ?? '';
  if (process.env.TZ_PROBE === 'on' && state.touched && !isTimeZoneTest(file)) {
    throw new Error(`${file} reads local time (${state.touched}) but does not run in the second time zone: add it to tests/timing/timeZoneTests.ts`);
  }
});

// @vitest-environment jsdom
// A screen's server answer through react-query (src/kit/useApiQuery.ts). Screens that show what machines
// report load it again by themselves (docs/fleet.md "Live pages"): quietly (no pending state), only while the
// tab is shown, keeping the shown answer when a refresh fails. Identical requests are one, a screen opened
// again shows its last answer at once, and the previous answer stays shown while the next one loads.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConsoleServicesProvider, type ConsoleServices } from '../../src/layout/ConsoleServices';
import { useApiQuery } from '../../src/kit/useApiQuery';

afterEach(cleanup);

type Load = (signal: AbortSignal) => Promise<string>;

const Probe = ({ load, name = 'key', refreshEveryMs, testId = 'probe' }: { load: Load; name?: string; refreshEveryMs?: number; testId?: string }) => {
  const { data, error, isPending, reload } = useApiQuery(['probe', name], (_http, signal) => load(signal), { refreshEveryMs });
  return (
    <button type="button" data-testid={testId} onClick={reload}>
      {`${data ?? '-'}|${error ? 'error' : 'ok'}|${isPending ? 'pending' : 'idle'}`}
    </button>
  );
};

let client: QueryClient;
const Providers = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>
    <ConsoleServicesProvider services={{ http: {} } as unknown as ConsoleServices}>{children}</ConsoleServicesProvider>
  </QueryClientProvider>
);
const show = (load: Load, refreshEveryMs?: number) =>
  render(
    <Providers>
      <Probe load={load} refreshEveryMs={refreshEveryMs} />
    </Providers>,
  );

const text = (testId = 'probe') => screen.getByTestId(testId).textContent;
// react-query hands an answer over on a zero-delay timer, set once the request's promise chain settled:
// one more millisecond runs those the advanced timers led to
const tick = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(1);
  });
};

let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  // react-admin's own QueryClient is a default one: so is this
  client = new QueryClient();
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  client.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('useApiQuery refresh', () => {
  it('loads again every interval while the tab is shown, without a pending state, and not while hidden', async () => {
    let answer = 0;
    const states: string[] = [];
    const load = vi.fn(async () => `answer ${++answer}`);
    show(load, 30_000);
    await tick(0);
    expect(text()).toBe('answer 1|ok|idle');
    const observer = new MutationObserver(() => states.push(text() ?? ''));
    observer.observe(screen.getByTestId('probe'), { childList: true, characterData: true, subtree: true });
    await tick(30_000);
    expect(text()).toBe('answer 2|ok|idle');
    expect(states.some((state) => state.endsWith('pending'))).toBe(false);
    visibility = 'hidden';
    await tick(90_000);
    expect(load).toHaveBeenCalledTimes(2);
    visibility = 'visible';
    await tick(30_000);
    expect(text()).toBe('answer 3|ok|idle');
    observer.disconnect();
  });

  it('keeps the shown answer when a refresh fails', async () => {
    const load = vi.fn<Load>().mockResolvedValueOnce('first').mockRejectedValueOnce(new Error('away')).mockResolvedValueOnce('third');
    show(load, 15_000);
    await tick(0);
    await tick(15_000);
    expect(load).toHaveBeenCalledTimes(2);
    expect(text()).toBe('first|ok|idle');
    await tick(15_000);
    expect(text()).toBe('third|ok|idle');
  });

  it('loads once without an interval, and shows a failure at once (no retries)', async () => {
    const load = vi.fn(async () => 'once');
    show(load);
    await tick(600_000);
    expect(load).toHaveBeenCalledTimes(1);
    cleanup();
    const failing = vi.fn<Load>().mockRejectedValue(new Error('down'));
    render(
      <Providers>
        <Probe load={failing} name="failing" />
      </Providers>,
    );
    await tick(0);
    expect(text()).toBe('-|error|idle');
    expect(failing).toHaveBeenCalledTimes(1);
  });

  it('reloads on demand: a retry after a failure is pending, then shows the answer', async () => {
    const load = vi.fn<Load>().mockRejectedValueOnce(new Error('down'));
    show(load);
    await tick(0);
    expect(text()).toBe('-|error|idle');
    let answer: (value: string) => void = () => undefined;
    load.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    fireEvent.click(screen.getByTestId('probe'));
    await tick(0);
    expect(text()).toBe('-|ok|pending');
    await act(async () => answer('back'));
    await tick(0);
    expect(text()).toBe('back|ok|idle');
  });
});

describe('useApiQuery sharing', () => {
  it('asks the server once for two screens asking the same, and shows the answer at once when opened again', async () => {
    let answer = 0;
    const load = vi.fn(async () => `answer ${++answer}`);
    const both = render(
      <Providers>
        <Probe load={load} testId="a" />
        <Probe load={load} testId="b" />
      </Providers>,
    );
    await tick(0);
    expect(load).toHaveBeenCalledTimes(1);
    expect([text('a'), text('b')]).toEqual(['answer 1|ok|idle', 'answer 1|ok|idle']);
    both.unmount();
    show(load);
    // the cached answer, before any timer ran, while it loads again quietly
    expect(text()).toBe('answer 1|ok|idle');
    await tick(0);
    expect(text()).toBe('answer 2|ok|idle');
  });

  it('keeps the previous answer shown while the next inputs load, and aborts the request they replace', async () => {
    const signals: Record<string, AbortSignal> = {};
    const pending: Record<string, (value: string) => void> = {};
    const load = (name: string) => (signal: AbortSignal) => {
      signals[name] = signal;
      return new Promise<string>((resolve) => {
        pending[name] = resolve;
      });
    };
    const view = (name: string) => (
      <Providers>
        <Probe load={load(name)} name={name} />
      </Providers>
    );
    const { rerender } = render(view('page 1'));
    await tick(0);
    await act(async () => pending['page 1']('rows of page 1'));
    await tick(0);
    expect(text()).toBe('rows of page 1|ok|idle');
    rerender(view('page 2'));
    await tick(0);
    expect(text()).toBe('rows of page 1|ok|pending');
    rerender(view('page 3'));
    await tick(0);
    expect(signals['page 2'].aborted).toBe(true);
    expect(text()).toBe('rows of page 1|ok|pending');
    await act(async () => pending['page 3']('rows of page 3'));
    await tick(0);
    expect(text()).toBe('rows of page 3|ok|idle');
  });
});

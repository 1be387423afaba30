// @vitest-environment jsdom
// Screens that show what machines report load it again by themselves (docs/fleet.md "Live pages"):
// quietly (no pending state), only while the tab is shown, keeping the shown answer when a refresh fails.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { ConsoleServicesProvider, type ConsoleServices } from '../../src/layout/ConsoleServices';
import { useApiData } from '../../src/installation/common/useApiData';

afterEach(cleanup);

const Probe = ({ load, refreshEveryMs }: { load: () => Promise<string>; refreshEveryMs?: number }) => {
  const { data, error, isPending } = useApiData(() => load(), 'key', { refreshEveryMs });
  return <output data-testid="probe">{`${data ?? '-'}|${error ? 'error' : 'ok'}|${isPending ? 'pending' : 'idle'}`}</output>;
};

const show = (load: () => Promise<string>, refreshEveryMs?: number) =>
  render(
    <ConsoleServicesProvider services={{ http: {} } as unknown as ConsoleServices}>
      <Probe load={load} refreshEveryMs={refreshEveryMs} />
    </ConsoleServicesProvider>,
  );

const text = () => screen.getByTestId('probe').textContent;
const tick = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

let visibility: DocumentVisibilityState = 'visible';

describe('useApiData refresh', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

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
    const load = vi.fn<() => Promise<string>>().mockResolvedValueOnce('first').mockRejectedValueOnce(new Error('away')).mockResolvedValueOnce('third');
    show(load, 15_000);
    await tick(0);
    await tick(15_000);
    expect(text()).toBe('first|ok|idle');
    await tick(15_000);
    expect(text()).toBe('third|ok|idle');
  });

  it('loads once without an interval', async () => {
    const load = vi.fn(async () => 'once');
    show(load);
    await tick(600_000);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

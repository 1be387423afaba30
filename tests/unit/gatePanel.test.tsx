// @vitest-environment jsdom
// The business gate's panel (docs/deployments.md "The business gate"): both sides and the difference against
// each limit; updated machines with more sessions than the others are said to have more, never "-229 % fewer".
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { GatePanel } from '../../src/deployments/GatePanel';
import type { GateConfig, GateResult } from '../../src/deployments/types';
import { consoleHarness } from './consoleHarness';

const GATE: GateConfig = { windowMinutes: 3, maxRejectRateIncrease: 5, maxSessionsDrop: 20 };
const side = (machines: number, items: number, rejectRate: number, sessionsPerMachineHour: number) => ({
  machines,
  sessions: 10,
  items,
  rejected: Math.round((items * rejectRate) / 100),
  rejectRate,
  sessionsPerMachineHour,
});
const result = (sessionsDrop: number): GateResult => ({
  verdict: 'fail',
  rule: 'rejectRate',
  windowFrom: '2026-11-28 14:11:26',
  windowTo: '2026-11-28 14:14:26',
  updated: side(3, 63, 46, 93.3),
  others: side(36, 323, 8.7, 28.3),
  rejectRateIncrease: 37.4,
  sessionsDrop,
});

const renderPanel = (lang: 'en' | 'zh', sessionsDrop: number) => {
  const h = consoleHarness();
  h.session.setLang(lang);
  h.renderIn(<GatePanel gate={GATE} result={result(sessionsDrop)} checkedTime="2026-11-28 14:14:26" />);
};

afterEach(cleanup);

describe('business gate panel', () => {
  it('says a negative drop as more sessions, in English and Chinese', async () => {
    renderPanel('en', -229.4);
    expect(await screen.findByText('229.4 % more (limit 20 % fewer)')).toBeTruthy();
    expect(screen.getByText('37.4 points (limit 5)')).toBeTruthy();
    cleanup();
    renderPanel('zh', -229.4);
    expect(await screen.findByText('多 229.4 %（下降上限 20 %）')).toBeTruthy();
  });

  it('says a drop as fewer sessions', async () => {
    renderPanel('en', 31.5);
    expect(await screen.findByText('31.5 % fewer (limit 20 %)')).toBeTruthy();
  });
});

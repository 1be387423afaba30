// The machine page (src/installation/machine/MachinePageScreen.tsx) mounted at a path inside the
// console's providers (./consoleHarness.tsx), for the machine page and tab tests.
import { Route, Routes } from 'react-router-dom';
import { findMenuByKey } from '../../resources/menu';
import MachinePageScreen from '../../src/installation/machine/MachinePageScreen';
import type { UserInfo } from '../../src/providers/session';
import { ADMIN, consoleHarness } from './consoleHarness';

export const MACHINE = { id: 5, termNo: 'HK0005', serialNumber: 'SN-0005', termType: 'S1', currentSts: 'Up', address: 'Pier 3' };

export const pageOf = <T,>(list: T[], total = list.length, extra: object = {}) => ({ list, total, pageNum: 1, pageSize: 20, ...extra });

/** The machine page signed in to an account paying refunds in Hong Kong dollars (the demo fleet's), unless `currency` says otherwise. */
export const renderMachinePage = (
  path: string,
  { user = ADMIN, handlers = {}, currency = 'HKD' }: { user?: UserInfo; handlers?: Record<string, unknown>; currency?: string } = {},
) => {
  const h = consoleHarness({ user, currency, handlers: { 'GET /rvm/5': MACHINE, ...handlers } });
  h.renderIn(
    <Routes>
      <Route path="/installation/rvmpage/*" element={<MachinePageScreen node={findMenuByKey('rvmpage')!} />} />
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    path,
  );
  return h;
};

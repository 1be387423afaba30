// What each H30 setting does on a simulated H30 (docs/machine-configuration.md#h30-config, server/simulator/h30Effects.ts),
// without a server: the same seeded consumers with and without an H30 config, so every difference is the setting's.
// maxItemsPerSession is checked end to end in simulatorTextsAndH30.test.ts.
import { describe, expect, it } from 'vitest';
import { VOUCHER_PAYOUT_METHODS } from '../../resources/configurationGroups';
import { Random } from '../../server/seed/random';
import { VirtualMachine } from '../../server/simulator/machine';
import { MachineSettings } from '../../server/simulator/machineSettings';
import { drawSession, fillOf, modelFor, type BinLevel } from '../../server/simulator/world';

const h30config = (settings: Record<string, string>) =>
  Buffer.from(
    JSON.stringify({
      format: 'rvm-configuration',
      v: 1,
      kind: 'h30config',
      resourceType: 'h30config',
      version: 1,
      items: Object.entries(settings).map(([setting, value]) => ({ setting, value })),
    }),
  );

const configured = (settings: Record<string, string>) => {
  const machine = new MachineSettings('H30');
  expect(machine.apply('h30config', h30config(settings))).toBeNull();
  return machine;
};

const bins = (): BinLevel[] => [
  { binNo: 1, itemType: 'plasticBottle', count: 0 },
  { binNo: 2, itemType: 'can', count: 0 },
];
const limits = { binEmptyHeight: 120, binFullHeight: 25, binAlmostFull: 80, binAlreadyFull: 98 };
const profile = { serialNumber: 'H30-EFFECTS', termType: 'H30', binCount: 2 };

/** 300 consumers of one seed at an H30 with these settings (none: the factory's). */
const consumers = (settings?: MachineSettings) => {
  const random = new Random('h30-effects');
  return Array.from({ length: 300 }, (_, index) => drawSession(random, modelFor('H30'), bins(), limits, profile, index + 1, 0, settings ?? new MachineSettings('H30')));
};

describe('H30 settings on a simulated H30', () => {
  const factory = consumers();

  it('conveyorSpeed sets the time per item: 10 takes half the factory time (5), 1 five times as long', () => {
    const fast = consumers(configured({ conveyorSpeed: '10' }));
    const slow = consumers(configured({ conveyorSpeed: '1' }));
    factory.forEach((draft, index) => {
      expect(fast[index].items.length).toBe(draft.items.length);
      expect(fast[index].seconds - 15).toBe(Math.round((draft.seconds - 15) / 2));
      expect(slow[index].seconds - 15).toBe((draft.seconds - 15) * 5);
    });
    // the factory speed written out changes nothing
    expect(consumers(configured({ conveyorSpeed: '5' })).map((draft) => draft.seconds)).toEqual(factory.map((draft) => draft.seconds));
  });

  it('cameraExposure far from 50 rejects many more items as low confidence (reason 4)', () => {
    const share = (drafts: ReturnType<typeof consumers>) => {
      const items = drafts.flatMap((draft) => draft.items);
      return items.filter((item) => item.rejectReason === 4).length / items.length;
    };
    expect(share(factory)).toBeLessThan(0.1);
    expect(share(consumers(configured({ cameraExposure: '100' })))).toBeGreaterThan(0.35);
    expect(share(consumers(configured({ cameraExposure: '50' })))).toBe(share(factory));
  });

  it('printerEnabled off: no receipt, supermarket or ticket voucher is offered', () => {
    const vouchers = (drafts: ReturnType<typeof consumers>) => drafts.filter((draft) => (VOUCHER_PAYOUT_METHODS as readonly string[]).includes(draft.payoutMethod));
    expect(vouchers(factory).length).toBeGreaterThan(10);
    const unprinted = consumers(configured({ printerEnabled: 'off' }));
    expect(vouchers(unprinted)).toEqual([]);
    expect(unprinted.filter((draft) => draft.voucherCode !== undefined)).toEqual([]);
    expect(vouchers(consumers(configured({ printerEnabled: 'on' }))).length).toBe(vouchers(factory).length);
  });

  it('idleTimeoutSeconds: a session the consumer walked away from lasts that much longer', () => {
    const waiting = consumers(configured({ idleTimeoutSeconds: '300' }));
    expect(factory.some((draft) => draft.payoutMethod === 'userCancelledPayment')).toBe(true);
    factory.forEach((draft, index) => expect(waiting[index].seconds - draft.seconds).toBe(draft.payoutMethod === 'userCancelledPayment' ? 300 : 0));
  });

  it('compaction off: a bin holds half as much, so its level and alarms rise at once', () => {
    const machine = new VirtualMachine({
      profile: { serialNumber: 'H30-COMPACT', termType: 'H30', binCount: 2, bins: [{ binNo: 1, currentHeight: 120, itemCount: 100 }] },
      credentials: { serialNumber: 'H30-COMPACT', secret: 'x', brokerUrl: 'mqtt://127.0.0.1:1' },
      seed: 'compaction',
      autopilot: false,
    });
    const before = fillOf(machine.bins[0]);
    expect(before).toBeGreaterThan(0);
    expect(machine.applyContent('h30config', h30config({ compaction: 'off' }))).toBeNull();
    // the same items fill twice the share of the bin (whole percentages, rounded down)
    expect(fillOf(machine.bins[0])).toBeGreaterThanOrEqual(2 * before);
    expect(fillOf(machine.bins[0])).toBeLessThanOrEqual(2 * before + 1);
    expect(machine.applyContent('h30config', h30config({ compaction: 'on' }))).toBeNull();
    expect(fillOf(machine.bins[0])).toBe(before);
  });

  it('another model keeps no H30 setting: nothing changes', () => {
    const t9 = new MachineSettings('T9');
    expect(t9.keeps('h30config')).toBe(false);
    expect(t9.effects()).toEqual(new MachineSettings('H30').effects());
  });
});

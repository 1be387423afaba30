// What an H30 config's settings do on a simulated H30 (docs/machine-configuration.md#h30-config, "On the machine"):
// each setting it lists changes something a console sees in the machine's messages; a setting it does not list
// keeps the factory value below, which is the simulator's behaviour without any H30 config.
import type { H30SettingKey } from '../../resources/configurationTexts';

/** How an H30's settings change its consumer sessions and bins (factory: no change). */
export interface SessionEffects {
  /** Seconds each item takes on the conveyor, as a factor of the factory speed's. */
  secondsPerItemFactor: number;
  /** Extra share of items the recogniser rejects as low confidence (reason 4): a badly exposed camera. */
  lowConfidence: number;
  /** No printer: nothing that prints a voucher (receipt, supermarket, ticket) is offered. */
  noVouchers: boolean;
  /** Seconds the machine waits before ending a session the consumer walked away from (cancelled): its idle time-out. */
  idleSeconds: number;
  /** The share of its nominal capacity a bin holds: without compaction containers take twice the room. */
  binCapacityFactor: number;
}

export const FACTORY_EFFECTS: SessionEffects = { secondsPerItemFactor: 1, lowConfidence: 0, noVouchers: false, idleSeconds: 0, binCapacityFactor: 1 };

/** The factory settings the effects are measured against. */
export const H30_FACTORY = { conveyorSpeed: 5, cameraExposure: 50 } as const;

/** At the far ends of the exposure range (1 or 100) this share of items is too dark or too bright to recognise. */
const WORST_EXPOSURE_REJECTS = 0.5;

/**
 * The effects of the settings an H30 config lists (values already checked against their ranges):
 * `conveyorSpeed` 1–10 sets the seconds per item (factory 5; 10 takes half the time, 1 five times as long);
 * `cameraExposure` away from 50 adds low-confidence rejects, up to half the items at 1 or 100;
 * `printerEnabled` off takes away the voucher payouts; `idleTimeoutSeconds` is added to a walked-away session;
 * `compaction` off halves what a bin holds. `maxItemsPerSession` is MachineSettings.maxItems; `screenBrightness`
 * changes nothing a machine reports (it is named in the diagnosis file only).
 */
export const h30Effects = (settings: Partial<Record<H30SettingKey, string>> | null): SessionEffects => {
  if (!settings) return FACTORY_EFFECTS;
  const number = (key: H30SettingKey) => (settings[key] === undefined ? undefined : Number(settings[key]));
  const speed = number('conveyorSpeed') ?? H30_FACTORY.conveyorSpeed;
  const exposure = number('cameraExposure') ?? H30_FACTORY.cameraExposure;
  return {
    secondsPerItemFactor: H30_FACTORY.conveyorSpeed / speed,
    lowConfidence: (Math.abs(exposure - H30_FACTORY.cameraExposure) / H30_FACTORY.cameraExposure) * WORST_EXPOSURE_REJECTS,
    noVouchers: settings.printerEnabled === 'off',
    idleSeconds: number('idleTimeoutSeconds') ?? 0,
    binCapacityFactor: settings.compaction === 'off' ? 0.5 : 1,
  };
};

// Why a rollout paused, in words (docs/deployments.md "Deployment statuses", "The business gate").
import type { useTranslate } from 'ra-core';
import type { PauseReason } from './types';

type Translate = ReturnType<typeof useTranslate>;

/** A figure as written in the sentence: at most one decimal, '?' when absent. */
export const figure = (value: number | null | undefined) => (value === null || value === undefined ? '?' : String(Math.round(value * 10) / 10));

export const pauseReasonText = (translate: Translate, reason: PauseReason | null | undefined): string | null => {
  if (!reason) return null;
  switch (reason.kind) {
    case 'operator':
      return translate('deployments.pause.operator', { user: reason.by, time: reason.time });
    case 'errorThreshold':
      return translate('deployments.pause.errorThreshold', { failed: reason.failed, started: reason.started, rate: figure(reason.rate), threshold: reason.threshold });
    case 'gate':
      return reason.rule === 'sessions'
        ? translate('deployments.pause.gateSessions', {
            updated: figure(reason.updated?.sessionsPerMachineHour),
            others: figure(reason.others?.sessionsPerMachineHour),
            drop: figure(reason.sessionsDrop),
            limit: figure(reason.limit),
          })
        : translate('deployments.pause.gateRejectRate', {
            updated: figure(reason.updated?.rejectRate),
            others: figure(reason.others?.rejectRate),
            increase: figure(reason.rejectRateIncrease),
            limit: figure(reason.limit),
          });
    default:
      return translate('deployments.pause.other');
  }
};

// A notification's "last sent" and "last result" (report notifications and event notification rules, both
// tables have the same three columns): written by their jobs and by "send now" in the mailing's transaction.
import type { NOTIFICATION_RESULTS } from '../../resources/mailOutbox';
import type { MailResult } from './mailer';

export type NotificationResult = (typeof NOTIFICATION_RESULTS)[number];

/** One recipient's mail and what came of it. */
export interface RecipientResult {
  to: string;
  result: MailResult;
}

/** The columns' values after mailing at `now`: `failed` when any recipient's mail did not go out, with each reason. */
export const lastMailing = (now: Date, results: readonly RecipientResult[]) => {
  const failures = results.filter(({ result }) => !result.delivered).map(({ to, result }) => `${to}: ${result.error ?? 'not delivered'}`);
  const lastResult: NotificationResult = failures.length ? 'failed' : 'sent';
  return {
    lastSent: now,
    lastResult,
    lastError: failures.length ? failures.join('; ').slice(0, 2000) : null,
  };
};

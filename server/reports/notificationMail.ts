// The mail of a report notification: the generated file attached, in the subscription's language
// (i18n notifications.mail). mail_outbox keeps the text, which names the attached file and its
// generated report, not the file itself (that stays in generated_report).
import { translate, type Locale } from '../../i18n';
import type { Mail, MailAttachment } from '../mail/mailer';
import { lastDayText, localDateText, type PeriodWindow, type ReportPeriod } from './notificationPeriods';

export interface ReportMailFacts {
  subscriptionName: string;
  report: string;
  period: ReportPeriod;
  language: Locale;
  window: PeriodWindow;
  zone: string;
  fleetNames: string[];
  generatedReportId: number;
  file: MailAttachment;
}

/** The addresses of a subscription's recipients list (comma-separated, as stored), each once. */
export const recipientsOf = (list: string) => [
  ...new Set(
    list
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
];

export const subscriptionMail = (facts: ReportMailFacts, to: string, publicUrl: string): Mail => {
  const t = (key: string, values: Record<string, string | number> = {}) => translate(facts.language, `notifications.${key}`, values);
  const values = {
    name: facts.subscriptionName,
    report: translate(facts.language, `resources.reportNotification.enums.report.${facts.report}`),
    period: t(`mail.periods.${facts.period}`),
    from: localDateText(facts.window.start, facts.zone),
    to: lastDayText(facts.window, facts.zone),
    zone: facts.zone,
  };
  const line = (key: string, value: string) => `${t(`mail.${key}`)}: ${value}`;
  const text = [
    t('mail.intro', values),
    '',
    line('report', values.report),
    line('period', t('mail.periodValue', values)),
    line('fleets', facts.fleetNames.length ? facts.fleetNames.join(', ') : t('mail.allFleets')),
    line('file', `${facts.file.filename} (#${facts.generatedReportId})`),
    line('link', `${publicUrl}/reports/report`),
    '',
    t('mail.footer'),
  ].join('\n');
  return { to, subject: t('mail.subject', values), text, attachments: [facts.file] };
};

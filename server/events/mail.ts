// The alarm notification mail. Bilingual (English, then Chinese): a rule's recipients are e-mail
// addresses, not users, so their language is unknown.
import { translate } from '../../i18n';
import type { Mail } from '../mail/mailer';

export type NotificationKind = 'raised' | 'reminder' | 'cleared';

export interface NotificationFacts {
  kind: NotificationKind;
  seq: number;
  ruleName: string;
  rvmId: number;
  termNo: string;
  address: string | null;
  code: string;
  raisedTime: Date;
  clearedTime: Date | null;
  detail: string | null;
}

/** 'YYYY-MM-DD HH:mm:ss UTC': recipients may be anywhere, so the zone is said. */
export const utcText = (time: Date) => `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const SUBJECTS = { raised: 'subjectRaised', reminder: 'subjectReminder', cleared: 'subjectCleared' } as const;
const INTROS = { raised: 'introRaised', reminder: 'introReminder', cleared: 'introCleared' } as const;

export const notificationMail = (facts: NotificationFacts, to: string, publicUrl: string): Mail => {
  const alarmText = `${translate('en', `fleet.alarms.${facts.code}`)} / ${translate('zh', `fleet.alarms.${facts.code}`)}`;
  const values = { termNo: facts.termNo, code: facts.code, text: alarmText, seq: facts.seq };
  const both = (key: string) => `${translate('en', `events.mail.${key}`, values)} / ${translate('zh', `events.mail.${key}`, values)}`;
  const line = (key: string, value: string) => `${both(key)}: ${value}`;
  const lines = [
    translate('en', `events.mail.${INTROS[facts.kind]}`, values),
    translate('zh', `events.mail.${INTROS[facts.kind]}`, values),
    '',
    line('machine', facts.termNo),
    line('address', facts.address ?? '-'),
    line('alarm', `${facts.code} ${alarmText}`),
    line('raised', utcText(facts.raisedTime)),
    ...(facts.clearedTime ? [line('cleared', utcText(facts.clearedTime))] : []),
    ...(facts.detail ? [line('detail', facts.detail)] : []),
    line('rule', facts.ruleName),
    line('link', `${publicUrl}/installation/rvmpage/${facts.rvmId}/EventHistory`),
  ];
  return { to, subject: translate('en', `events.mail.${SUBJECTS[facts.kind]}`, values), text: lines.join('\n') };
};

export interface RuleFacts {
  ruleName: string;
  alarmCodes: readonly string[];
  fleetNames: readonly string[];
  reminderHours: number;
  notifyOnClear: boolean;
}

/** The mail of "send now" (server/events/sendNow.ts): says it is a test and what the rule would mail about. */
export const ruleTestMail = (facts: RuleFacts, to: string, publicUrl: string): Mail => {
  const values = { name: facts.ruleName, hours: facts.reminderHours };
  const both = (key: string) => `${translate('en', `events.mail.${key}`, values)} / ${translate('zh', `events.mail.${key}`, values)}`;
  const line = (key: string, value: string) => `${both(key)}: ${value}`;
  const alarms = facts.alarmCodes.map((code) => `  ${code} ${translate('en', `fleet.alarms.${code}`)} / ${translate('zh', `fleet.alarms.${code}`)}`);
  const lines = [
    translate('en', 'events.mail.introTest', values),
    translate('zh', 'events.mail.introTest', values),
    '',
    line('rule', facts.ruleName),
    `${both('alarms')}:`,
    ...alarms,
    line('fleets', facts.fleetNames.length ? facts.fleetNames.join(', ') : both('allFleets')),
    line('reminders', facts.reminderHours > 0 ? both('everyHours') : both('never')),
    line('onClear', facts.notifyOnClear ? both('yes') : both('no')),
    line('rules', `${publicUrl}/service/eventNotifications`),
  ];
  return { to, subject: both('subjectTest'), text: lines.join('\n') };
};

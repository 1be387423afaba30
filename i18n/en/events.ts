// Section 'events' of the English catalogue: alarm events and their e-mail notification rules
// (service › events, service › event notifications). `eventResources` holds the labels of their
// declarations, merged into `resources` (the generic views look them up as `resources.<name>.*`).
import { fleet } from './fleet';

export const events = {
  validation: {
    alarmCodeList: 'Enter alarm codes such as am_code_PK_17, separated by commas',
    unknownAlarmCode: 'Every alarm code must be in the alarm catalogue (am_code_PK_1 to am_code_PK_70)',
    emailList: 'Enter valid e-mail addresses, separated by commas',
  },
  // The notification mail (bilingual: the recipients' language is not known).
  mail: {
    subjectRaised: 'Alarm raised on %{termNo}: %{code} %{text}',
    subjectReminder: 'Reminder %{seq}, alarm still open on %{termNo}: %{code} %{text}',
    subjectCleared: 'Alarm cleared on %{termNo}: %{code} %{text}',
    introRaised: 'An alarm was raised.',
    introReminder: 'The alarm is still open (reminder %{seq}).',
    introCleared: 'The alarm was cleared.',
    machine: 'RVM',
    address: 'Address',
    alarm: 'Alarm',
    raised: 'Raised',
    cleared: 'Cleared',
    detail: 'Detail',
    rule: 'Notification rule',
    link: 'Event history',
    // "send now": a test of the rule, without an alarm
    subjectTest: 'Test of the alarm notification rule "%{name}"',
    introTest:
      'This is a test sent with "Send now" in the RVM Console: no alarm was raised. The recipients of this rule get a mail like the alarm mails when one of these alarms is raised.',
    alarms: 'Alarms',
    fleets: 'Fleets',
    allFleets: 'All fleets',
    reminders: 'Reminders',
    everyHours: 'every %{hours} hours while open',
    never: 'none',
    onClear: 'Mail when cleared',
    yes: 'yes',
    no: 'no',
    rules: 'Event notifications',
  },
} as const;

/** Labels of the event declarations (resources/event.ts, resources/eventNotification.ts). */
export const eventResources = {
  event: {
    name: 'Event |||| Events',
    fields: {
      id: 'ID',
      termNo: 'RVM number',
      rvmId: 'RVM',
      fleetId: 'Fleet',
      code: 'Alarm',
      category: 'Category',
      severity: 'Severity',
      raisedTime: 'Raised',
      clearedTime: 'Cleared',
      duration: 'Duration',
      open: 'Open',
      detail: 'Detail',
    },
    filters: {
      code: 'Alarm code',
      fleetId: 'Fleet',
      rvmId: 'RVM',
      open: 'Open only',
      raisedFrom: 'Raised from',
      raisedTo: 'Raised until',
      category: 'Category',
      severity: 'Severity',
    },
    // The alarm vocabulary of the fleet catalogue: one wording here, on the machine page and in mails.
    enums: { code: fleet.alarms, category: fleet.alarmCategories, severity: fleet.severities },
  },
  eventNotification: {
    name: 'Event notification |||| Event notifications',
    fields: {
      id: 'ID',
      name: 'Name',
      alarmCodes: 'Alarm codes',
      fleets: 'Fleets (none: all)',
      recipients: 'E-mail recipients',
      reminderHours: 'Remind every (hours)',
      notifyOnClear: 'Mail when cleared',
      enabled: 'Enabled',
      createTime: 'Create time',
      lastSent: 'Last sent',
      lastResult: 'Last result',
      lastError: 'Why the last mailing failed',
    },
    // the alarm-code picker's texts: the fleet catalogue's wording
    enums: { alarmCodes: fleet.alarms, lastResult: { sent: 'Sent', failed: 'Failed' } },
    filters: {
      nameLike: 'Name',
      alarmCodesLike: 'Alarm code',
      recipientsLike: 'Recipient',
      enabled: 'Enabled',
    },
  },
} as const;

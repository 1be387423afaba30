// Section 'notifications' of the English catalogue: report notification subscriptions (reports ›
// notifications) and the mail the scheduler sends. `notificationResources` holds the labels of the
// declaration (resources/reportNotification.ts), merged into `resources` (the generic views read them there).

export const notifications = {
  validation: {
    badRecipient: '"%{address}" is not a valid e-mail address (enter addresses such as ops@example.com, separated by commas)',
    emptyRecipient: 'The list has an empty entry: remove the extra comma',
    tooManyRecipients: 'At most %{max} recipients',
  },
  // The mail with the report attached, in the subscription's language.
  mail: {
    subject: '%{period} report "%{name}": %{report}, %{from} to %{to}',
    intro: 'Attached is the report "%{report}" of your subscription "%{name}" for the period just over.',
    report: 'Report',
    period: 'Period',
    periodValue: '%{from} to %{to} (%{zone}, both days included)',
    fleets: 'Fleets',
    allFleets: 'All fleets',
    file: 'Attached file',
    link: 'Generated reports',
    footer: 'You receive this mail because your address is a recipient of this subscription in the RVM Console (Reports › Report notifications).',
    periods: { weekly: 'Weekly', monthly: 'Monthly' },
  },
  // "Send now" on report and event notifications (src/resources/SendNowButton.tsx)
  sendNow: {
    action: 'Send now',
    title: 'Send "%{name}" now?',
    confirmReport: 'The report of the period just over is produced and mailed to every recipient now: %{recipients}.',
    confirmEvent: 'A test mail saying what this rule mails about goes to every recipient now: %{recipients}.',
    sending: 'Sending…',
    sent: 'Sent to %{smart_count} recipient |||| Sent to %{smart_count} recipients',
  },
} as const;

/** Labels of the subscription declaration (resources/reportNotification.ts). */
export const notificationResources = {
  reportNotification: {
    name: 'Report notification |||| Report notifications',
    fields: {
      id: 'ID',
      name: 'Name',
      report: 'Report',
      period: 'Period',
      recipients: 'E-mail recipients',
      fleets: 'Fleets (none: all)',
      format: 'File format',
      language: 'Language of file and mail',
      enabled: 'Enabled',
      lastStatus: 'Last run',
      lastProduced: 'Last produced',
      nextDue: 'Next due',
      createTime: 'Create time',
      lastSent: 'Last sent',
      lastResult: 'Last result',
      lastError: 'Why the last mailing failed',
    },
    filters: {
      nameLike: 'Name',
      report: 'Report',
      period: 'Period',
      recipientsLike: 'Recipient',
      enabled: 'Enabled',
    },
    enums: {
      report: { volumes: 'Volumes', volumesDaily: 'Volumes daily', acceptedRejects: 'Accepted/rejects counts', barcodeRejects: 'Barcode rejects records' },
      period: { weekly: 'Weekly', monthly: 'Monthly' },
      format: { xlsx: 'Excel (XLSX)', csv: 'CSV' },
      language: { en: 'English', zh: 'Chinese (中文)' },
      lastStatus: { due: 'Due', produced: 'Produced, mail pending', mailed: 'Mailed', skipped: 'Skipped', failed: 'Failed' },
      lastResult: { sent: 'Sent', failed: 'Failed' },
    },
  },
  // System settings › Mails sent (resources/mailOutbox.ts)
  mailOutbox: {
    name: 'Mail sent |||| Mails sent',
    fields: {
      id: 'ID',
      createdAt: 'Time',
      recipient: 'Recipient',
      subject: 'Subject',
      status: 'Status',
      sentAt: 'Accepted by the mail server',
      error: 'Error',
      body: 'Text (secrets redacted)',
    },
    filters: { createdFrom: 'From', createdTo: 'Until', recipientLike: 'Recipient', subjectLike: 'Subject', status: 'Status' },
    enums: { status: { sent: 'Sent', failed: 'Failed', notSent: 'Not sent (no mail server)' } },
  },
} as const;

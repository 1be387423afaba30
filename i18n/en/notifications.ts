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
    },
  },
} as const;

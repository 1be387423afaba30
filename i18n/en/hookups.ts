// Section 'hookups' of the English catalogue: the APIs area (docs/api-hookups.md). `hookupResources` holds the
// labels of its declarations, merged into `resources` (the generic views look them up as `resources.<name>.*`).

export const hookups = {
  validation: {
    url: 'Enter an http:// or https:// address',
    emailList: 'Enter valid e-mail addresses, separated by commas',
    events: 'Choose events of this API',
    vendorConnectEvents: 'A vendor connect app answers machines directly; it receives no events',
  },
  permissions: { secret: 'Show or rotate the signing secret', resend: 'Resend and replay messages' },
  secret: {
    show: 'Show secret',
    rotate: 'Rotate secret',
    title: 'Signing secret of %{name}',
    once: 'Copy it now: it is shown only this once. Receivers verify the webhook-signature header with it (Standard Webhooks).',
    previous: 'The previous secret keeps signing until %{until}.',
    copy: 'Copy',
    copied: 'Secret copied',
    close: 'Close',
    confirmRotate: 'Rotate the signing secret of %{name}? The current one stays valid for 24 hours.',
  },
  messages: {
    resend: 'Resend',
    confirmResend: 'Send %{smart_count} message again? |||| Send %{smart_count} messages again?',
    resent: '%{smart_count} message queued again |||| %{smart_count} messages queued again',
    replay: 'Replay failed',
    replayTitle: 'Send again every failed message of a time range',
    replayFrom: 'Event time from',
    replayTo: 'Event time until',
    replayed: '%{smart_count} failed message queued again |||| %{smart_count} failed messages queued again',
    cancel: 'Cancel',
  },
  mail: {
    subject: 'Third-party app %{name} switched off',
    body: 'The app %{name} (%{url}) has answered no message successfully since %{since}, for more than %{days} days. It was switched off.',
    action: 'Its messages wait. Fix the receiver, then switch the app on again under APIs; failed messages can be replayed.',
  },
} as const;

const appLabels = (name: string) => ({
  name,
  fields: {
    id: 'ID',
    name: 'Name',
    url: 'URL',
    apiType: 'API type',
    fleets: 'Fleets (with sub-fleets)',
    enabled: 'Enabled',
    ownerEmails: 'Owners to notify (e-mails; empty: creator)',
    dockingTime: 'Docking time',
    lastSuccessTime: 'Last success',
    failingSince: 'Failing since',
    secretPending: 'Secret not shown yet',
    createdBy: 'Creator',
  },
  filters: { nameLike: 'Name', apiType: 'API type', urlLike: 'URL', enabled: 'Enabled' },
  enums: { apiType: { standard: 'Standard', vendorConnect: 'Vendor connect', consumerSession: 'Consumer session', binEmpty: 'Bin empty', machineStatus: 'Machine status' } },
});

const EVENTS = {
  'consumerSession.completed': 'Consumer session completed',
  'bin.emptied': 'Bin emptied',
  'bin.full': 'Bin full',
  'machine.statusChanged': 'Machine status changed',
} as const;

const subscriptionLabels = (name: string) => ({
  name,
  fields: { id: 'ID', appId: 'Third-party app', events: 'Events', fleets: "Only these fleets (none: all the app's)", enabled: 'Enabled', createTime: 'Create time' },
  filters: { appId: 'Third-party app', enabled: 'Enabled' },
  enums: { events: EVENTS },
});

const SEND_STATUS = { notSent: 'Not sent', success: 'Success', fail: 'Fail' } as const;

const messageLabels = (name: string) => ({
  name,
  fields: {
    id: 'ID',
    messageId: 'Message ID',
    appId: 'Third-party app',
    termNo: 'RVM ID',
    rvmId: 'RVM',
    eventType: 'Event',
    eventTime: 'Event time',
    status: 'Send status',
    attempts: 'Count',
    lastSendTime: 'Last send time',
    lastResponseStatus: 'Answer',
    lastResponseExcerpt: 'Answer text',
    lastResponse: 'Last answer',
    nextAttemptTime: 'Next attempt',
    body: 'Message',
  },
  filters: {
    status: 'Send status',
    appId: 'Third-party app',
    rvmId: 'RVM',
    eventFrom: 'Event time from',
    eventTo: 'Event time until',
    messageId: 'Message ID',
    eventType: 'Event',
  },
  enums: { status: SEND_STATUS, eventType: EVENTS },
});

/** Labels of the APIs area's declarations (resources/hookup*.ts). */
export const hookupResources = {
  csThridApp: appLabels('Consumer session third-party app |||| Consumer session third-party apps'),
  ciThridApp: appLabels('Collection third-party app |||| Collection third-party apps'),
  statusThridApp: appLabels('Machine status third-party app |||| Machine status third-party apps'),
  csApi: subscriptionLabels('Consumer session API subscription |||| Consumer session API subscriptions'),
  ciApi: subscriptionLabels('Collection API subscription |||| Collection API subscriptions'),
  statusApi: subscriptionLabels('Machine status API subscription |||| Machine status API subscriptions'),
  csApiTransaction: messageLabels('Consumer session API transaction |||| Consumer session API transactions'),
  ciApiTransaction: messageLabels('Collection API transaction |||| Collection API transactions'),
  statusApiTransaction: messageLabels('Machine status API transaction |||| Machine status API transactions'),
  tcRvmList: {
    name: 'Tracing-code RVM |||| Tracing-code RVMs',
    fields: {
      id: 'ID',
      termNo: 'RVM ID',
      fleetId: 'Fleet',
      currentSts: 'Status',
      schemeApp: 'Scheme app',
      redeemed: 'Redeemed',
      refused: 'Refused',
      lastSessionTime: 'Last session',
    },
    filters: { termNoLike: 'RVM ID', fleetId: 'Fleet', currentSts: 'Status' },
    enums: { currentSts: { Up: 'Up', Offline: 'Offline', Down: 'Down (out of service)', Sleep: 'Sleep' } },
  },
  tcTransactionList: {
    name: 'Tracing-code transaction |||| Tracing-code transactions',
    fields: { id: 'ID', termNo: 'RVM ID', rvmId: 'RVM', time: 'Time', barcode: 'Code', itemType: 'Item type', outcome: 'Outcome', refund: 'Refund' },
    filters: { outcome: 'Outcome', rvmId: 'RVM', timeFrom: 'From', timeTo: 'Until', barcode: 'Code' },
    enums: { outcome: { redeemed: 'Redeemed', alreadyRedeemed: 'Tracing code redeemed (102)', invalid: 'Invalid tracing code (103)', missing: 'Missing tracing code (101)' } },
  },
  notificationList: {
    name: 'API notification |||| API notifications',
    fields: {
      id: 'ID',
      time: 'Time',
      channel: 'Channel',
      target: 'To',
      subject: 'Subject',
      status: 'Send status',
      attempts: 'Count',
      detail: 'Detail',
      reference: 'Reference',
      label: 'Subject',
    },
    filters: { channel: 'Channel', status: 'Send status', timeFrom: 'From', timeTo: 'Until' },
    enums: { channel: { webhook: 'Webhook', vendorConnect: 'Vendor connect', reportMail: 'Report mail', alarmMail: 'Alarm mail' }, status: SEND_STATUS },
  },
} as const;

// The vocabulary of API hookups (docs/api-hookups.md), shared by the declarations, the server and the console.

/** API families: the three groups of screens of the APIs area. `vendor` messages are recorded synchronous calls. */
export const HOOKUP_FAMILIES = ['cs', 'ci', 'status'] as const;
export type HookupFamily = (typeof HOOKUP_FAMILIES)[number];
export const MESSAGE_FAMILIES = [...HOOKUP_FAMILIES, 'vendor'] as const;
export type MessageFamily = (typeof MESSAGE_FAMILIES)[number];

/** The API types of docs/api-hookups.md. */
export const API_TYPES = ['standard', 'vendorConnect', 'consumerSession', 'binEmpty', 'machineStatus'] as const;
export type ApiType = (typeof API_TYPES)[number];

/** The API types an app screen of a family shows (a standard app is on all three). */
export const FAMILY_API_TYPES: Readonly<Record<HookupFamily, readonly ApiType[]>> = {
  cs: ['standard', 'consumerSession', 'vendorConnect'],
  ci: ['standard', 'binEmpty'],
  status: ['standard', 'machineStatus'],
};

/** Event types a subscription of a family may choose (Standard Webhooks `type`). */
export const FAMILY_EVENTS = {
  cs: ['consumerSession.completed'],
  ci: ['bin.emptied', 'bin.full'],
  status: ['machine.statusChanged'],
} as const satisfies Record<HookupFamily, readonly string[]>;
export const VENDOR_EVENT = 'vendorConnect.request';
export const EVENT_TYPES = [...FAMILY_EVENTS.cs, ...FAMILY_EVENTS.ci, ...FAMILY_EVENTS.status, VENDOR_EVENT] as const;
export type HookupEventType = (typeof EVENT_TYPES)[number];

/** The send statuses of docs/api-hookups.md. */
export const SEND_STATUSES = ['notSent', 'success', 'fail'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/** Tracing-code outcomes of a consumer session item: reject reasons 101–103 (docs/product-rules.md#catalogues) or redeemed. */
export const TC_OUTCOMES = ['redeemed', 'alreadyRedeemed', 'invalid', 'missing'] as const;
export const NOTIFICATION_CHANNELS = ['webhook', 'vendorConnect', 'reportMail', 'alarmMail'] as const;

/** Screen keys of resources/menu.ts per family. */
export const FAMILY_SCREENS = {
  cs: { app: 'csThridApp', api: 'csApi', transactions: 'csApiTransaction', menu: { app: 1203, api: 1201, transactions: 1202 } },
  ci: { app: 'ciThridApp', api: 'ciApi', transactions: 'ciApiTransaction', menu: { app: 1206, api: 1204, transactions: 1205 } },
  status: { app: 'statusThridApp', api: 'statusApi', transactions: 'statusApiTransaction', menu: { app: 1209, api: 1207, transactions: 1208 } },
} as const satisfies Record<HookupFamily, unknown>;

// Chip colours of enum fields declared with `display: 'status'` (resources/types.ts), by the status
// word's meaning. Shared by the generic list and hand-written screens so a status looks the same
// everywhere; an unknown word gets the neutral colour.
export type StatusColor = 'default' | 'success' | 'error' | 'warning' | 'info';

const COLORS: Readonly<Record<string, StatusColor>> = {
  up: 'success',
  online: 'success',
  active: 'success',
  completed: 'success',
  success: 'success',
  redeemed: 'success',
  down: 'error',
  error: 'error',
  failed: 'error',
  fail: 'error',
  invalid: 'error',
  full: 'error',
  warning: 'warning',
  aborted: 'warning',
  alreadyredeemed: 'warning',
  missing: 'warning',
  almostfull: 'warning',
  sleep: 'info',
  notsent: 'info',
  info: 'info',
  offline: 'default',
  inactive: 'default',
};

export const statusColor = (value: unknown): StatusColor => COLORS[String(value).toLowerCase()] ?? 'default';

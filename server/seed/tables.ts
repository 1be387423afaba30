// The bulk-loaded tables of the demo fleet, column order = the order `push` expects.
import { BulkTable } from './bulk';

export const createSeedTables = () => ({
  rvm: new BulkTable('rvm', [
    { name: 'id', type: 'int4' }, { name: 'license_account_id', type: 'int4' }, { name: 'fleet_id', type: 'int4' },
    { name: 'term_no', type: 'text' }, { name: 'serial_number', type: 'text' }, { name: 'term_type', type: 'text' },
    { name: 'sts', type: 'text' }, { name: 'current_sts', type: 'text' }, { name: 'status_since', type: 'timestamptz' },
    { name: 'online', type: 'bool' }, { name: 'local_area_id', type: 'text' }, { name: 'address', type: 'text' },
    { name: 'software_version', type: 'text' }, { name: 'sim_no', type: 'text' }, { name: 'mac_address', type: 'text' },
    { name: 'longitude', type: 'float8' }, { name: 'latitude', type: 'float8' }, { name: 'install_date', type: 'date' },
    { name: 'activation_date', type: 'date' }, { name: 'bin_count', type: 'int2' }, { name: 'bin_empty_height', type: 'int2' },
    { name: 'bin_full_height', type: 'int2' }, { name: 'bin_almost_full', type: 'int2' }, { name: 'bin_already_full', type: 'int2' },
    { name: 'on_time', type: 'text' }, { name: 'off_time', type: 'text' }, { name: 'last_session_time', type: 'timestamptz' },
    { name: 'note', type: 'text' }, { name: 'create_time', type: 'timestamptz' },
  ]),
  bin: new BulkTable('rvm_bin', [
    { name: 'rvm_id', type: 'int4' }, { name: 'bin_no', type: 'int2' }, { name: 'license_account_id', type: 'int4' },
    { name: 'item_type', type: 'text' }, { name: 'current_height', type: 'int2' }, { name: 'fill_percent', type: 'int2' },
    { name: 'item_count', type: 'int4' }, { name: 'last_emptied_time', type: 'timestamptz' },
  ]),
  status: new BulkTable('rvm_status_history', [
    { name: 'license_account_id', type: 'int4' }, { name: 'rvm_id', type: 'int4' }, { name: 'status', type: 'text' },
    { name: 'start_time', type: 'timestamptz' }, { name: 'end_time', type: 'timestamptz' },
  ]),
  online: new BulkTable('rvm_online_history', [
    { name: 'license_account_id', type: 'int4' }, { name: 'rvm_id', type: 'int4' }, { name: 'online', type: 'bool' },
    { name: 'start_time', type: 'timestamptz' }, { name: 'end_time', type: 'timestamptz' },
  ]),
  event: new BulkTable('rvm_event', [
    { name: 'license_account_id', type: 'int4' }, { name: 'rvm_id', type: 'int4' }, { name: 'code', type: 'text' },
    { name: 'category', type: 'text' }, { name: 'severity', type: 'text' }, { name: 'raised_time', type: 'timestamptz' },
    { name: 'cleared_time', type: 'timestamptz' }, { name: 'detail', type: 'text' },
  ]),
  session: new BulkTable('consumer_session', [
    { name: 'id', type: 'int8' }, { name: 'license_account_id', type: 'int4' }, { name: 'rvm_id', type: 'int4' },
    { name: 'start_time', type: 'timestamptz' }, { name: 'end_time', type: 'timestamptz' }, { name: 'payout_method', type: 'text' },
    { name: 'total_refund', type: 'numeric' }, { name: 'item_count', type: 'int2' }, { name: 'accepted_count', type: 'int2' },
    { name: 'rejected_count', type: 'int2' }, { name: 'user_id', type: 'text' }, { name: 'voucher_code', type: 'text' },
    { name: 'donation_institute_id', type: 'int4' },
  ]),
  item: new BulkTable('consumer_session_item', [
    { name: 'session_id', type: 'int8' }, { name: 'seq', type: 'int2' }, { name: 'license_account_id', type: 'int4' },
    { name: 'item_type', type: 'text' }, { name: 'barcode', type: 'text' }, { name: 'category', type: 'text' },
    { name: 'refund', type: 'numeric' }, { name: 'reject_reason', type: 'int2' }, { name: 'picture', type: 'text' },
  ]),
  service: new BulkTable('service_session', [
    { name: 'license_account_id', type: 'int4' }, { name: 'rvm_id', type: 'int4' }, { name: 'technician', type: 'text' },
    { name: 'start_time', type: 'timestamptz' }, { name: 'end_time', type: 'timestamptz' }, { name: 'cleaning_outcome', type: 'text' },
    { name: 'bins_emptied', type: 'int2' }, { name: 'note', type: 'text' },
  ]),
  daily: new BulkTable('rvm_daily_usage', [
    { name: 'rvm_id', type: 'int4' }, { name: 'day', type: 'date' }, { name: 'license_account_id', type: 'int4' },
    { name: 'sessions', type: 'int4' }, { name: 'items', type: 'int4' }, { name: 'accepted', type: 'int4' },
    { name: 'rejected', type: 'int4' }, { name: 'refund', type: 'numeric' },
  ]),
});

export type SeedTables = ReturnType<typeof createSeedTables>;

/** Insert order: parents before children (foreign keys may be in place). */
export const tablesInOrder = (tables: SeedTables) => [
  tables.rvm, tables.bin, tables.status, tables.online, tables.event, tables.session, tables.item, tables.service, tables.daily,
];

/** The activity tables whose indexes a large load drops and rebuilds. */
export const ACTIVITY_TABLES = [
  'rvm_status_history', 'rvm_online_history', 'rvm_event', 'consumer_session', 'consumer_session_item', 'service_session', 'rvm_daily_usage',
] as const;

// The dashboard's machine definitions BEFORE the pass rewrite (server/dashboard/definitions.ts at commit 6495a74), for
// bench/dashboardBefore.ts only: the old computation measured with its own sets (profile versions by mode(), the "full"
// level by a pass over the machines and a lookup per bin, the 24-hour sums over the whole account).
import { sql, type SQL } from 'drizzle-orm';
import { KNOWN_ALARMS } from '../resources/fleetCatalogue';
import { HOME_LIMITS } from '../resources/machine';
import { rvm } from '../server/db/schema/fleet';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The machine facts the dashboard counts and the machine list filters on (boolean fields of the declaration). */
export const MACHINE_FACTS = ['full', 'highRejectRate', 'needsClean', 'profileMismatch', 'quarantined', 'octopusOffline', 'alipayOffline'] as const;
export type MachineFact = (typeof MACHINE_FACTS)[number];

/** The time filters (datetime values: the window's start). */
export const MACHINE_SINCE_FILTERS = ['downSince', 'offlineSince', 'notUsedSince'] as const;
export type MachineSinceFilter = (typeof MACHINE_SINCE_FILTERS)[number];

/** `now` as SQL: the database clock (list) or the dashboard's instant (a parameter). */
export type Now = SQL;
export const dbNow: Now = sql`now()`;
export const instant = (time: Date): Now => sql`${time.toISOString()}::timestamptz`;
const minus = (now: Now, ms: number) => sql`(${now} - ${`${ms / 1000} seconds`}::interval)`;

const id = sql`${rvm.id}`;
// "More than 40 % rejected" in whole numbers (rejected × 1000 > items × 400): exact, and integer
// comparisons instead of numeric ones over the tens of thousands of hourly rows of a whole account.
const PER_MILLE = sql.raw(String(Math.round(HOME_LIMITS.highReject.rate * 1000)));
const overRate = (rejected: SQL, items: SQL) => sql`${rejected} * 1000 > ${items} * ${PER_MILLE}`;
const minItems = sql.raw(String(HOME_LIMITS.highReject.minItems));

/** The software version most machines of the model run in the account (ties: the greatest version text). */
const profileVersions = (account?: number) => sql`
  select p.license_account_id, p.term_type, mode() within group (order by p.software_version desc) as version
  from rvm p where p.software_version is not null ${account === undefined ? sql`` : sql`and p.license_account_id = ${account}`}
  group by p.license_account_id, p.term_type`;

const quarantineSenders = (account?: number) =>
  sql`select q.license_account_id, q.caused_by from quarantine_message q ${account === undefined ? sql`` : sql`where q.license_account_id = ${account}`}`;

const profileMismatch = (account?: number) => sql`(${rvm.softwareVersion} is not null and (${rvm.licenseAccountId}, ${rvm.termType}, ${rvm.softwareVersion})
  not in (select v.license_account_id, v.term_type, v.version from (${profileVersions(account)}) v))`;

// By serial number (what the gateway records) or RVM number (what a sender may call itself).
const quarantined = (account?: number) => sql`((${rvm.licenseAccountId}, ${rvm.serialNumber}) in (${quarantineSenders(account)})
  or (${rvm.licenseAccountId}, ${rvm.termNo}) in (${quarantineSenders(account)}))`;

interface FactForms {
  perMachine(now: Now): SQL;
  inAccount(account: number, now: Date): SQL;
}

const openAlarm = (code: string): FactForms => ({
  perMachine: () => sql`exists (select 1 from rvm_event e where e.rvm_id = ${id} and e.code = ${code} and e.cleared_time is null)`,
  inAccount: (account) => sql`${id} in (select e.rvm_id from rvm_event e where e.license_account_id = ${account} and e.code = ${code} and e.cleared_time is null)`,
});

export const FACTS: Record<MachineFact, FactForms> = {
  // At least one bin at or above the machine's "already full" level (100 % when not set): the Overview tab's "full".
  full: {
    perMachine: () => sql`exists (select 1 from rvm_bin b where b.rvm_id = ${id} and b.fill_percent >= coalesce(${rvm.binAlreadyFull}, 100))`,
    // Only bins at or above the account's lowest "already full" level (the fill index), each checked
    // against its own machine's level (a key lookup): a handful of bins, never the whole fleet's.
    inAccount: (account) => sql`${id} in (select b.rvm_id from rvm_bin b
      where b.license_account_id = ${account}
        and b.fill_percent >= (select coalesce(min(coalesce(m.bin_already_full, 100)), 100) from rvm m where m.license_account_id = ${account})
        and b.fill_percent >= (select coalesce(f.bin_already_full, 100) from rvm f where f.id = b.rvm_id))`,
  },
  // Sessions started in the last 24 hours: more than 10 items AND more than 40 % of them rejected.
  highRejectRate: {
    perMachine: (now) => sql`exists (select 1 from consumer_session cs where cs.rvm_id = ${id} and cs.start_time >= ${minus(now, HOME_LIMITS.highReject.hours * HOUR)}
      having sum(cs.item_count) > ${minItems} and ${overRate(sql`sum(cs.rejected_count)`, sql`sum(cs.item_count)`)})`,
    // Whole hours from the hourly roll-up, the part hour at the window's start from the sessions.
    inAccount: (account, now) => {
      const from = new Date(now.getTime() - HOME_LIMITS.highReject.hours * HOUR);
      const firstHour = new Date(Math.ceil(from.getTime() / HOUR) * HOUR);
      return sql`${id} in (select w.rvm_id from (
          select h.rvm_id, h.items, h.rejected from rvm_hourly_usage h
          where h.license_account_id = ${account} and h.hour >= ${firstHour.toISOString()}::timestamptz
          union all
          select cs.rvm_id, cs.item_count, cs.rejected_count from consumer_session cs
          where cs.license_account_id = ${account} and cs.start_time >= ${from.toISOString()}::timestamptz and cs.start_time < ${firstHour.toISOString()}::timestamptz
        ) w group by w.rvm_id having sum(w.items) > ${minItems} and ${overRate(sql`sum(w.rejected)`, sql`sum(w.items)`)})`;
    },
  },
  // No service session with cleaning outcome "completed" started in the last 7 days.
  needsClean: {
    perMachine: (now) => sql`not exists (select 1 from service_session s where s.rvm_id = ${id} and s.cleaning_outcome = 'completed'
      and s.start_time >= ${minus(now, HOME_LIMITS.cleaningDays * DAY)})`,
    // The latest completed cleaning per machine (roll-up).
    inAccount: (account, now) => sql`${id} not in (select c.rvm_id from rvm_cleaning_state c where c.license_account_id = ${account}
      and c.last_completed_time >= ${new Date(now.getTime() - HOME_LIMITS.cleaningDays * DAY).toISOString()}::timestamptz)`,
  },
  // Its software version differs from the one most machines of its model (termType) in the account run.
  profileMismatch: { perMachine: () => profileMismatch(), inAccount: (account) => profileMismatch(account) },
  // Messages of the machine wait in the quarantine (refused by the gateway, not resolved by a retry).
  quarantined: { perMachine: () => quarantined(), inAccount: (account) => quarantined(account) },
  // Open "Octopus reader offline" / "Alipay offline" alarms (KNOWN_ALARMS).
  octopusOffline: openAlarm(KNOWN_ALARMS.octopusOffline),
  alipayOffline: openAlarm(KNOWN_ALARMS.alipayOffline),
};

/** `downSince`, `offlineSince`, `notUsedSince`: machines still in that state since before `since`. */
export const sinceCondition = (name: MachineSinceFilter, since: Date): SQL => {
  switch (name) {
    case 'downSince':
      return sql`(${rvm.currentSts} = 'Down' and ${rvm.statusSince} < ${since})`;
    case 'offlineSince':
      return sql`(${rvm.currentSts} = 'Offline' and ${rvm.statusSince} < ${since})`;
    case 'notUsedSince':
      return sql`(${rvm.lastSessionTime} is null or ${rvm.lastSessionTime} < ${since})`;
  }
};

export const isMachineFact = (name: string): name is MachineFact => (MACHINE_FACTS as readonly string[]).includes(name);
export const isSinceFilter = (name: string): name is MachineSinceFilter => (MACHINE_SINCE_FILTERS as readonly string[]).includes(name);

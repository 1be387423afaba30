// The rules of the group and payout configuration kinds that their declarations cannot say
// (docs/machine-configuration.md#group and #payout), merged into ./kindRules.ts. They run inside the write's
// transaction before the shared versioning hooks; each refusal is 1004 naming the field, in the caller's language.
import { and, count, eq, inArray } from 'drizzle-orm';
import { EVERY_MACHINE, VOUCHER_PAYOUT_METHODS } from '../../resources/configurationGroups';
import type { Caller } from '../auth/principal';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import type { Db } from '../db/client';
import { configurationGroup, configurationGroupFleet, payoutMethodConfig } from '../db/schema/configurationGroups';
import { refundItem } from '../db/schema/machineConfiguration';
import { donationInstitute } from '../db/schema/fleet';
import { AppError, invalidField } from '../lib/errors';

const accountOf = (caller: Caller) => caller.principal.licenseAccountId ?? -1;
const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A comma-separated list's entries, trimmed; one listed twice is refused (items do not repeat). */
const listOf = (field: string, value: unknown): string[] => {
  if (typeof value !== 'string') return [];
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const twice = entries.find((entry, index) => entries.indexOf(entry) !== index);
  if (twice !== undefined) throw invalidField(field, 'resources.group.validation.repeated', '1004', { value: twice });
  return entries;
};

/** Stores a list as `a, b, c` (what a machine reads and a diff compares). */
const normalizeList = (field: string, input: Values, values: Values) => {
  if (!(field in input) || isEmpty(input[field])) return;
  input[field] = values[field] = listOf(field, input[field]).join(', ');
};

// ---- group ------------------------------------------------------------------------------------------

/** Payout items naming the group `name` (a machine group a payout applies to). */
const payoutsNaming = async (tx: Db, account: number, name: string) =>
  (
    await tx
      .select({ n: count() })
      .from(payoutMethodConfig)
      .where(and(eq(payoutMethodConfig.licenseAccountId, account), eq(payoutMethodConfig.machineGroup, name)))
  )[0].n;

/** Refund items naming the product group `name`. */
const refundsNaming = async (tx: Db, account: number, name: string) =>
  (
    await tx
      .select({ n: count() })
      .from(refundItem)
      .where(and(eq(refundItem.licenseAccountId, account), eq(refundItem.productGroup, name)))
  )[0].n;

/** Machines by models and/or fleets, products by barcodes, never both. */
const checkMembers = (record: Values) => {
  const machines = !isEmpty(record.models) || !isEmpty(record.fleets);
  if (record.kind === 'products') {
    if (!isEmpty(record.models)) throw invalidField('models', 'resources.group.validation.productsOnly');
    if (!isEmpty(record.fleets)) throw invalidField('fleets', 'resources.group.validation.productsOnly');
    if (isEmpty(record.barcodes)) throw invalidField('barcodes', 'resources.group.validation.productMembers');
  } else {
    if (!isEmpty(record.barcodes)) throw invalidField('barcodes', 'resources.group.validation.machinesOnly');
    if (!machines) throw invalidField('models', 'resources.group.validation.machineMembers');
  }
};

const fleetsOf = async (tx: Db, id: number) =>
  (await tx.select({ fleetId: configurationGroupFleet.fleetId }).from(configurationGroupFleet).where(eq(configurationGroupFleet.groupId, id))).map((row) => row.fleetId);

const groupRules: ResourceHooks = {
  beforeCreate: async (_context, input, values) => {
    normalizeList('models', input, values);
    normalizeList('barcodes', input, values);
    checkMembers(input);
  },
  beforeUpdate: async ({ tx, caller }, id, input, values, existing) => {
    normalizeList('models', input, values);
    normalizeList('barcodes', input, values);
    const fleets = 'fleets' in input ? input.fleets : await fleetsOf(tx, id);
    checkMembers({ ...existing, ...input, fleets });
    // a payout names the group: it keeps its name and stays a machine group; a refund names it: it keeps its name and
    // stays a product group (change them first)
    const renamed = 'name' in input && input.name !== existing.name;
    const toProducts = input.kind === 'products' && existing.kind !== 'products';
    const toMachines = input.kind === 'machines' && existing.kind !== 'machines';
    const name = String(existing.name);
    if ((renamed || toProducts) && (await payoutsNaming(tx, accountOf(caller), name)) > 0) {
      throw invalidField(renamed ? 'name' : 'kind', 'resources.group.validation.namedByPayout', '1004', { name });
    }
    if ((renamed || toMachines) && (await refundsNaming(tx, accountOf(caller), name)) > 0) {
      throw invalidField(renamed ? 'name' : 'kind', 'resources.group.validation.namedByRefund', '1004', { name });
    }
  },
  beforeDelete: async ({ tx, caller }: HookContext, ids) => {
    const named = await tx
      .select({ name: configurationGroup.name, n: count(payoutMethodConfig.id) })
      .from(configurationGroup)
      .innerJoin(
        payoutMethodConfig,
        and(eq(payoutMethodConfig.licenseAccountId, configurationGroup.licenseAccountId), eq(payoutMethodConfig.machineGroup, configurationGroup.name)),
      )
      .where(and(inArray(configurationGroup.id, ids), eq(configurationGroup.licenseAccountId, accountOf(caller))))
      .groupBy(configurationGroup.name)
      .orderBy(configurationGroup.name);
    const byRefund = await tx
      .selectDistinct({ name: configurationGroup.name })
      .from(configurationGroup)
      .innerJoin(refundItem, and(eq(refundItem.licenseAccountId, configurationGroup.licenseAccountId), eq(refundItem.productGroup, configurationGroup.name)))
      .where(and(inArray(configurationGroup.id, ids), eq(configurationGroup.licenseAccountId, accountOf(caller))))
      .orderBy(configurationGroup.name);
    // every group that cannot go is named (a batch delete of several named only the first)
    const issues = [
      ...named.map((row) => ({ field: 'name', message: 'resources.group.validation.namedByPayout', values: { name: row.name } })),
      ...byRefund.map((row) => ({ field: 'name', message: 'resources.group.validation.namedByRefund', values: { name: row.name } })),
    ];
    if (issues.length) throw new AppError('5002', { issues });
  },
};

// ---- refund (its product group) --------------------------------------------------------------------

/** A refund item names a product or a product group, not both; the group must be one of the account's product groups. */
export const checkRefundGroup = async (tx: Db, account: number, record: Values) => {
  if (isEmpty(record.productGroup)) return;
  if (!isEmpty(record.barcode)) throw invalidField('productGroup', 'resources.refund.validation.productOrGroup');
  const name = String(record.productGroup);
  const [found] = await tx
    .select({ kind: configurationGroup.kind })
    .from(configurationGroup)
    .where(and(eq(configurationGroup.licenseAccountId, account), eq(configurationGroup.name, name)))
    .limit(1);
  if (!found) throw invalidField('productGroup', 'resources.refund.validation.unknownGroup', '1004', { name });
  if (found.kind !== 'products') throw invalidField('productGroup', 'resources.refund.validation.machineGroup', '1004', { name });
};

// ---- payout -----------------------------------------------------------------------------------------

/** `*`, or the name of a machine group of the account. */
const checkGroup = async (tx: Db, account: number, name: unknown) => {
  if (name === EVERY_MACHINE || typeof name !== 'string') return;
  const [found] = await tx
    .select({ kind: configurationGroup.kind })
    .from(configurationGroup)
    .where(and(eq(configurationGroup.licenseAccountId, account), eq(configurationGroup.name, name)))
    .limit(1);
  if (!found) throw invalidField('machineGroup', 'resources.payout.validation.unknownGroup', '1004', { name });
  if (found.kind !== 'machines') throw invalidField('machineGroup', 'resources.payout.validation.productGroup', '1004', { name });
};

/** A validity for vouchers only; institutes for donation only, which needs one when enabled, each a known institute. */
const checkParameters = async (tx: Db, account: number, record: Values) => {
  const method = String(record.method);
  if (!isEmpty(record.validityDays) && !(VOUCHER_PAYOUT_METHODS as readonly string[]).includes(method)) {
    throw invalidField('validityDays', 'resources.payout.validation.validityVouchersOnly');
  }
  if (method !== 'donation') {
    if (!isEmpty(record.institutes)) throw invalidField('institutes', 'resources.payout.validation.institutesDonationOnly');
    return;
  }
  const names = listOf('institutes', record.institutes);
  if (!names.length) {
    if (record.enabled !== false) throw invalidField('institutes', 'resources.payout.validation.institutesNeeded');
    return;
  }
  const known = new Set(
    (
      await tx
        .select({ name: donationInstitute.name })
        .from(donationInstitute)
        .where(and(eq(donationInstitute.licenseAccountId, account), inArray(donationInstitute.name, names)))
    ).map((row) => row.name),
  );
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined) throw invalidField('institutes', 'resources.payout.validation.unknownInstitute', '1004', { name: unknown });
};

const payoutRules: ResourceHooks = {
  beforeCreate: async ({ tx, caller }, input, values) => {
    normalizeList('institutes', input, values);
    await checkGroup(tx, accountOf(caller), input.machineGroup);
    await checkParameters(tx, accountOf(caller), input);
  },
  beforeUpdate: async ({ tx, caller }, _id, input, values, existing) => {
    normalizeList('institutes', input, values);
    if ('machineGroup' in input && input.machineGroup !== existing.machineGroup) await checkGroup(tx, accountOf(caller), input.machineGroup);
    await checkParameters(tx, accountOf(caller), { ...existing, ...input });
  },
};

export const GROUP_RULES: Readonly<Record<string, ResourceHooks>> = { group: groupRules, payout: payoutRules };

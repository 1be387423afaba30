// What a simulated machine keeps of its configuration packages (docs/machine-configuration.md "On the machine",
// docs/machine-protocol.md "Configuration packages"): the refund table, the assortment, the sorting, its
// main config, its screen texts (lang), its groups and payout methods, on an H30 its H30 settings, and the sections of a
// generated config file (configFile.ts). Until a package of a kind is applied the machine keeps its factory behaviour for that kind.
import { EVERY_MACHINE } from '../../resources/configurationGroups';
import { ITEM_TYPES, PAYOUT_METHODS, type ItemType, type PayoutMethod } from '../../resources/fleetCatalogue';
import { CONFIGURATION_FORMAT, type ConfigurationContent, type ConfigurationItem } from '../../resources/machineConfiguration';
import { H30_MODEL, H30_SETTINGS, h30ValueIssue, MACHINE_TEXT_KEYS, type H30SettingKey, type MachineTextKey } from '../../resources/configurationTexts';
import { CONFIG_FILE_RESOURCE_TYPE } from '../../resources/configTemplates';
import { readConfigFile } from './configFile';
import { h30Effects, type SessionEffects } from './h30Effects';
import type { PayoutOption, Thresholds } from './world';

/** The package resource types read here (resources/configurationKinds.ts). */
const KEPT = new Set(['refund', 'assortment', 'sorting', 'main', 'group', 'payout', 'lang', CONFIG_FILE_RESOURCE_TYPE]);

export interface MainSettings extends Thresholds {
  onTime: string;
  offTime: string;
  language: string;
  volume: number;
}

const isItemType = (value: unknown): value is ItemType => typeof value === 'string' && (ITEM_TYPES as readonly string[]).includes(value);
const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** What a machine's screen says until a lang package sets a text (its factory texts, English). */
export const FACTORY_TEXTS: Readonly<Record<MachineTextKey, string>> = {
  welcome: 'Welcome! Recycle your bottles and cans here.',
  insertItem: 'Please insert one item at a time.',
  itemAccepted: 'Item accepted.',
  itemRejected: 'Item rejected: please take it back.',
  sessionTotal: 'Your refund so far:',
  choosePayout: 'How would you like your refund?',
  printReceipt: 'Printing your receipt…',
  thankYou: 'Thank you for recycling!',
  binFull: 'This bin is full: some items cannot be taken.',
  outOfService: 'Out of service. Sorry for the inconvenience.',
  closed: 'Closed. Please come back during opening hours.',
  consumerRefused: 'Sorry, this machine cannot serve you.',
};
const isPayoutMethod = (value: unknown): value is PayoutMethod => typeof value === 'string' && (PAYOUT_METHODS as readonly string[]).includes(value);
/** A comma-separated list of a package (`a, b, c`). */
const listOf = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    : [];

/** A machine group of the applied group package: the machine is in it by its model or its fleet. */
interface MachineGroup {
  name: string;
  models: string[];
  fleets: number[];
}

/** The content a package carries, if it is a configuration of `resourceType` (a machine reads strictly). */
export const readConfiguration = (resourceType: string, content: Buffer): ConfigurationContent | null => {
  try {
    const value = JSON.parse(content.toString('utf8')) as Partial<ConfigurationContent>;
    if (value.format !== CONFIGURATION_FORMAT || value.v !== 1 || value.resourceType !== resourceType || !Array.isArray(value.items)) return null;
    if (!value.items.every((item) => typeof item === 'object' && item !== null)) return null;
    return value as ConfigurationContent;
  } catch {
    return null;
  }
};

export class MachineSettings {
  /** Refund per product barcode, per product group and item type (`<group>:<itemType>`), and per item type. */
  private productRefund: Map<string, number> | null = null;
  private groupRefund: Map<string, number> | null = null;
  private typeRefund: Map<ItemType, number> | null = null;
  private assortment: Set<string> | null = null;
  private assortmentRefund: Map<string, number> | null = null;
  private sorting: Map<ItemType, number> | null = null;
  main: MainSettings | null = null;
  /** Screen texts by `<language>:<textKey>` (a lang package). */
  private texts: Map<string, string> | null = null;
  /** The H30 settings of an h30config package (H30 machines only); settings it does not list keep the factory's. */
  h30: Partial<Record<H30SettingKey, string>> | null = null;
  /** Machine groups (a group package), and payout items in key order (a payout package). */
  private groups: MachineGroup[] | null = null;
  /** Product groups of the group package, by name: their barcodes (what a refund per product group applies to). */
  private productGroups: Array<{ name: string; barcodes: Set<string> }> = [];
  private payoutItems: ConfigurationItem[] | null = null;
  /** The last config file applied: its template's name, its contents' ids, its sections (`refund v4`). */
  private configFile: { template: string; contentIds: string[]; sections: string[] } | null = null;

  /** `model`: the machine's termType, whose main config row it takes (else the `*` row); `fleetId`: its fleet (machine groups). */
  constructor(
    private readonly model: string,
    private readonly fleetId: number | null = null,
  ) {}

  keeps(resourceType: string) {
    // an H30 config is for H30 machines: another model only counts and hashes it (applied, nothing changes)
    return KEPT.has(resourceType) || (resourceType === 'h30config' && this.model === H30_MODEL);
  }

  /** Replaces the kind's settings with the package's (a package is the whole configuration); a text says why it cannot. */
  apply(resourceType: string, content: Buffer): string | null {
    if (resourceType === CONFIG_FILE_RESOURCE_TYPE) return this.applyConfigFile(content);
    const read = readConfiguration(resourceType, content);
    if (!read) return `Configuration package unreadable (${resourceType})`;
    return this.applyItems(resourceType, read.items);
  }

  /**
   * A generated config file (docs/machine-protocol.md#generated-config-files): every section applied as its kind's own
   * package would be, all or nothing: tried first on a scratch copy, so a section it refuses changes nothing.
   */
  private applyConfigFile(content: Buffer): string | null {
    const read = readConfigFile(content);
    if (typeof read === 'string') return read;
    if (!read.targetModels.includes(this.model)) return `Config file for ${read.targetModels.join(', ')}, not for model ${this.model}`;
    const trial = new MachineSettings(this.model, this.fleetId);
    for (const section of read.sections) {
      const refused = trial.keeps(section.resourceType) ? trial.applyItems(section.resourceType, section.items) : null;
      if (refused) return `Config file section ${section.resourceType}: ${refused}`;
    }
    for (const section of read.sections) if (this.keeps(section.resourceType)) this.applyItems(section.resourceType, section.items);
    this.configFile = { template: read.template, contentIds: read.contentIds, sections: read.sections.map((section) => `${section.resourceType} v${section.version}`) };
    return null;
  }

  /** What its last config file held, as its diagnosis file says it; none applied: null. */
  configFileSummary(): string | null {
    if (!this.configFile) return null;
    const { template, contentIds, sections } = this.configFile;
    return `${template}; contents ${contentIds.join(', ') || 'none'}; configurations ${sections.join(', ') || 'none'}`;
  }

  private applyItems(resourceType: string, items: ConfigurationItem[]): string | null {
    if (resourceType === 'lang') return this.applyTexts(items);
    if (resourceType === 'h30config') return this.applyH30(items);
    if (resourceType === 'refund') {
      this.productRefund = new Map();
      this.groupRefund = new Map();
      this.typeRefund = new Map();
      for (const item of items) {
        const value = numberOf(item.value);
        if (value === null || !isItemType(item.itemType)) continue;
        if (typeof item.barcode === 'string' && item.barcode) this.productRefund.set(item.barcode, value);
        else if (typeof item.productGroup === 'string' && item.productGroup) this.groupRefund.set(`${item.productGroup}:${item.itemType}`, value);
        else this.typeRefund.set(item.itemType, value);
      }
    } else if (resourceType === 'assortment') {
      this.assortment = new Set(items.map((item) => item.barcode).filter((barcode): barcode is string => typeof barcode === 'string'));
      this.assortmentRefund = new Map();
      for (const item of items) {
        const value = numberOf(item.refund);
        if (value !== null && typeof item.barcode === 'string') this.assortmentRefund.set(item.barcode, value);
      }
    } else if (resourceType === 'sorting') {
      this.sorting = new Map(items.filter((item) => isItemType(item.itemType) && numberOf(item.binNo) !== null).map((item) => [item.itemType as ItemType, item.binNo as number]));
    } else if (resourceType === 'main') {
      const row = items.find((item) => item.model === this.model) ?? items.find((item) => item.model === '*');
      if (!row) return `No main config for model ${this.model}`;
      this.main = {
        binEmptyHeight: Number(row.binEmptyHeight),
        binFullHeight: Number(row.binFullHeight),
        binAlmostFull: Number(row.almostFullPercent),
        binAlreadyFull: Number(row.alreadyFullPercent),
        onTime: String(row.onTime),
        offTime: String(row.offTime),
        language: String(row.language),
        volume: Number(row.volume),
      };
    } else if (resourceType === 'group') {
      this.groups = items
        .filter((item) => item.kind === 'machines' && typeof item.name === 'string')
        .map((item) => ({
          name: String(item.name),
          models: listOf(item.models),
          fleets: Array.isArray(item.fleets) ? item.fleets.filter((fleet): fleet is number => typeof fleet === 'number') : [],
        }));
      this.productGroups = items
        .filter((item) => item.kind === 'products' && typeof item.name === 'string')
        .map((item) => ({ name: String(item.name), barcodes: new Set(listOf(item.barcodes)) }))
        .sort((a, b) => a.name.localeCompare(b.name));
    } else if (resourceType === 'payout') {
      this.payoutItems = items.filter((item) => isPayoutMethod(item.method) && typeof item.machineGroup === 'string');
    }
    return null;
  }

  /** The machine groups it is in, by its model or its fleet (no group package applied: none). */
  groupNames(): Set<string> {
    const fleet = this.fleetId;
    return new Set((this.groups ?? []).filter((group) => group.models.includes(this.model) || (fleet !== null && group.fleets.includes(fleet))).map((group) => group.name));
  }

  /**
   * The payout methods its payout package enables for it, with their parameters; null: no payout package
   * applied (every method). Per method, an item of a group the machine is in decides (the first such group by
   * name), else the `*` item; a method no item enables is off.
   */
  payoutOptions(): PayoutOption[] | null {
    if (!this.payoutItems) return null;
    const mine = this.groupNames();
    const deciding = new Map<string, ConfigurationItem>();
    for (const item of this.payoutItems) {
      if (item.machineGroup !== EVERY_MACHINE && mine.has(String(item.machineGroup)) && !deciding.has(String(item.method))) deciding.set(String(item.method), item);
    }
    for (const item of this.payoutItems) if (item.machineGroup === EVERY_MACHINE && !deciding.has(String(item.method))) deciding.set(String(item.method), item);
    return [...deciding.values()]
      .filter((item) => item.enabled !== false)
      .map((item) => ({
        method: item.method as PayoutMethod,
        minAmount: numberOf(item.minAmount),
        maxAmount: numberOf(item.maxAmount),
        validityDays: numberOf(item.validityDays),
        institutes: item.method === 'donation' ? listOf(item.institutes) : null,
      }));
  }

  /** An applied assortment lists the barcode (no assortment applied: every barcode is known). */
  accepts(barcode: string | undefined): boolean {
    return !this.assortment || (barcode !== undefined && this.assortment.has(barcode));
  }

  /**
   * The refund of an accepted item: the product's own, its product group's for its item type (the first group by name
   * that lists the barcode and has a value), the assortment's, its type's; undefined: the factory value.
   */
  refundOf(itemType: ItemType, barcode: string | undefined): number | undefined {
    if (barcode !== undefined) {
      const own = this.productRefund?.get(barcode) ?? this.groupRefundOf(itemType, barcode) ?? this.assortmentRefund?.get(barcode);
      if (own !== undefined) return own;
    }
    return this.typeRefund?.get(itemType);
  }

  private groupRefundOf(itemType: ItemType, barcode: string): number | undefined {
    for (const group of this.productGroups) {
      const value = group.barcodes.has(barcode) ? this.groupRefund?.get(`${group.name}:${itemType}`) : undefined;
      if (value !== undefined) return value;
    }
    return undefined;
  }

  private applyTexts(items: ConfigurationItem[]) {
    const texts = new Map<string, string>();
    for (const item of items) {
      if (typeof item.language === 'string' && typeof item.text === 'string' && (MACHINE_TEXT_KEYS as readonly unknown[]).includes(item.textKey)) {
        texts.set(`${item.language}:${String(item.textKey)}`, item.text);
      }
    }
    this.texts = texts;
    return null;
  }

  /** Every listed setting must fit its type and range (a machine reads strictly: else `failed`, nothing changes). */
  private applyH30(items: ConfigurationItem[]) {
    const values: Partial<Record<H30SettingKey, string>> = {};
    for (const item of items) {
      const setting = String(item.setting);
      if (!(setting in H30_SETTINGS) || typeof item.value !== 'string' || h30ValueIssue(setting, item.value)) return `H30 setting ${setting} unreadable`;
      values[setting as H30SettingKey] = item.value;
    }
    this.h30 = values;
    return null;
  }

  /** The language its screen shows: its main config's, else English. */
  screenLanguage(): string {
    return this.main?.language ?? 'en';
  }

  /** A text of its screen: the lang package's in the screen language, else its English one, else the factory text. */
  screenText(key: MachineTextKey): string {
    return this.texts?.get(`${this.screenLanguage()}:${key}`) ?? this.texts?.get(`en:${key}`) ?? FACTORY_TEXTS[key];
  }

  /** The most items a consumer may feed in one session (an H30 config's maxItemsPerSession); undefined: no limit of its own. */
  maxItems(): number | undefined {
    const value = this.h30?.maxItemsPerSession;
    return value === undefined ? undefined : Number(value);
  }

  /** What its H30 settings change in its sessions and bins (h30Effects.ts); no H30 config applied: nothing. */
  effects(): SessionEffects {
    return h30Effects(this.h30);
  }

  /** Its H30 settings as its diagnosis file says them (`conveyorSpeed 7, maxItemsPerSession 2`); none applied: null. */
  h30Summary(): string | null {
    if (!this.h30) return null;
    return (
      Object.entries(this.h30)
        .map(([setting, value]) => `${setting} ${value}`)
        .join(', ') || 'factory'
    );
  }

  /** The bin number an item type goes to, when a sorting says. */
  binOf(itemType: ItemType): number | undefined {
    return this.sorting?.get(itemType);
  }
}

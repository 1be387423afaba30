// What a simulated machine keeps of its configuration packages (docs/machine-configuration.md "On the machine",
// docs/machine-protocol.md "Configuration packages"): the refund table, the assortment, the sorting and its
// main config. Until a package of a kind is applied the machine keeps its factory behaviour for that kind.
import { ITEM_TYPES, type ItemType } from '../../resources/fleetCatalogue';
import { CONFIGURATION_FORMAT, type ConfigurationContent, type ConfigurationItem } from '../../resources/machineConfiguration';
import type { Thresholds } from './world';

/** The package resource types read here (resources/configurationKinds.ts). */
const KEPT = new Set(['refund', 'assortment', 'sorting', 'main']);

export interface MainSettings extends Thresholds {
  onTime: string;
  offTime: string;
  language: string;
  volume: number;
}

const isItemType = (value: unknown): value is ItemType => typeof value === 'string' && (ITEM_TYPES as readonly string[]).includes(value);
const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

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
  /** Refund per product barcode, and per item type. */
  private productRefund: Map<string, number> | null = null;
  private typeRefund: Map<ItemType, number> | null = null;
  private assortment: Set<string> | null = null;
  private assortmentRefund: Map<string, number> | null = null;
  private sorting: Map<ItemType, number> | null = null;
  main: MainSettings | null = null;

  /** `model`: the machine's termType, whose main config row it takes (else the `*` row). */
  constructor(private readonly model: string) {}

  keeps(resourceType: string) {
    return KEPT.has(resourceType);
  }

  /** Replaces the kind's settings with the package's (a package is the whole configuration); a text says why it cannot. */
  apply(resourceType: string, content: Buffer): string | null {
    const read = readConfiguration(resourceType, content);
    if (!read) return `Configuration package unreadable (${resourceType})`;
    const items: ConfigurationItem[] = read.items;
    if (resourceType === 'refund') {
      this.productRefund = new Map();
      this.typeRefund = new Map();
      for (const item of items) {
        const value = numberOf(item.value);
        if (value === null || !isItemType(item.itemType)) continue;
        if (typeof item.barcode === 'string' && item.barcode) this.productRefund.set(item.barcode, value);
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
    }
    return null;
  }

  /** An applied assortment lists the barcode (no assortment applied: every barcode is known). */
  accepts(barcode: string | undefined): boolean {
    return !this.assortment || (barcode !== undefined && this.assortment.has(barcode));
  }

  /** The refund of an accepted item: the product's own, the assortment's, its type's; undefined: the factory value. */
  refundOf(itemType: ItemType, barcode: string | undefined): number | undefined {
    if (barcode !== undefined) {
      const own = this.productRefund?.get(barcode) ?? this.assortmentRefund?.get(barcode);
      if (own !== undefined) return own;
    }
    return this.typeRefund?.get(itemType);
  }

  /** The bin number an item type goes to, when a sorting says. */
  binOf(itemType: ItemType): number | undefined {
    return this.sorting?.get(itemType);
  }
}

// The four reports of the Reports screen (definitions in docs/reports.md#definitions), shared by the
// server (queries, files) and the console (picker, chart, table). Labels: i18n `reports.*`.
import { ITEM_TYPES, REJECT_REASON_CODES, type ItemType } from './fleetCatalogue';

export const REPORT_KINDS = ['volumes', 'volumesDaily', 'acceptedRejects', 'barcodeRejects'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The reports' product names (docs/product-rules.md#catalogues): file names, and the screen's picker beside the translated title. */
export const REPORT_NAMES: Record<ReportKind, string> = {
  volumes: 'Volumes',
  volumesDaily: 'Volumes_Daily',
  acceptedRejects: 'Accepted_Rejects_Counts',
  barcodeRejects: 'Barcode_Rejects_Records',
};

export const REPORT_LIMITS = {
  /** Longest range of one report, in days. */
  maxRangeDays: 366,
  /** Rows of one downloaded or generated file (Barcode_Rejects_Records can be long); more answers 9302. */
  maxFileRows: 100_000,
  /** Largest page of the screen's table. */
  maxPageSize: 500,
} as const;

/** Material columns: one per item type of the catalogue. */
export const MATERIALS: readonly ItemType[] = ITEM_TYPES;
export const REJECT_REASONS: readonly number[] = REJECT_REASON_CODES;

/**
 * The table (and file) columns of each report, in order. `material:<type>` and `reason` columns are
 * labelled from the fleet vocabulary; the others from `reports.columns.<key>`.
 */
export const REPORT_COLUMNS: Record<ReportKind, readonly string[]> = {
  volumes: ['termNo', 'fleetName', 'accepted', ...MATERIALS.map((type) => `material:${type}`)],
  volumesDaily: ['day', 'accepted', ...MATERIALS.map((type) => `material:${type}`)],
  acceptedRejects: ['termNo', 'fleetName', 'items', 'accepted', 'rejected', 'rejectRate'],
  barcodeRejects: ['time', 'termNo', 'fleetName', 'barcode', 'itemType', 'reason'],
};

/** Machine-row reports can be paged and sorted by these keys (most first). */
export const REPORT_SORTS: Partial<Record<ReportKind, readonly string[]>> = {
  volumes: ['accepted', 'termNo'],
  acceptedRejects: ['rejected', 'rejectRate', 'accepted', 'items', 'termNo'],
};

import { defineResource } from './types';

/** The machine resources a package can carry (docs/product-rules.md#catalogues), as stored. */
export const RESOURCE_TYPES = [
  'software',
  'configuration',
  'promotion',
  'system',
  'ai',
  'shape',
  'barcode',
  'assortment',
  'refund',
  'sorting',
  'group',
  'config',
  'main',
  'lang',
  'payout',
  'h30config',
  // service personnel and consumer bans (docs/service-personnel.md)
  'personnel',
  'banList',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** `notUploaded` until the package's file is stored (derived from the file field, server/resources/deploymentPackage.ts). */
export const UPLOAD_STATUSES = ['notUploaded', 'uploaded'] as const;

/**
 * A package's delivery to one machine (`deployment_target.status`, docs/product-rules.md#statuses distribution statuses plus
 * applied / apply failed; docs/deployments.md says how each is reached).
 */
export const DELIVERY_STATUSES = ['toBeIssued', 'issued', 'inProcess', 'applied', 'applyFailed', 'receiveFailed', 'noFeedback', 'taskOverdue', 'voided'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Counted against a rollout's error threshold and retried by "retry failed". */
export const FAILED_DELIVERY_STATUSES = ['applyFailed', 'receiveFailed', 'noFeedback', 'taskOverdue'] as const satisfies readonly DeliveryStatus[];
/** A finished delivery never moves again. */
export const FINISHED_DELIVERY_STATUSES = ['applied', 'voided', ...FAILED_DELIVERY_STATUSES] as const satisfies readonly DeliveryStatus[];

/** What a machine reports about a delivery (the protocol's `deployStatus.state`, docs/machine-protocol.md). */
export const DEPLOY_STATES = ['received', 'downloadFailed', 'checksumFailed', 'applying', 'applied', 'failed'] as const;
export type DeployState = (typeof DEPLOY_STATES)[number];

/** The largest package file: the upload limit of docs/product-rules.md#validation-rules. */
export const PACKAGE_MAX_BYTES = 50 * 1024 * 1024;

const VERSION = { regex: '^[A-Za-z0-9._-]+$', message: 'resources.deploymentPackage.validation.version' } as const;
// Machine models as the machines' `termType` spells them, comma-separated.
const MODEL = '[A-Za-z0-9 ._-]+';
const MODEL_LIST = { regex: `^\\s*${MODEL}(\\s*,\\s*${MODEL})*\\s*$`, message: 'resources.deploymentPackage.validation.modelList' } as const;

/**
 * Packages (Service › Setup, docs/deployments.md "Packages"): a machine resource of one type and version
 * for machines of the adapted models, its bytes an uploaded file. Deleting one a deployment names
 * answers 5002 (the deployment's package reference restricts it); its file cannot change while a
 * deployment of it runs (server/resources/deploymentPackage.ts).
 */
export const deploymentPackage = defineResource({
  name: 'deploymentPackage',
  apiPath: '/package',
  route: '/service/setup',
  menuId: 604, // service (6) › setup, resources/menu.ts
  table: 'deployment_package',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    resourceType: { type: 'enum', options: RESOURCE_TYPES, required: true, sortable: true },
    version: { type: 'text', required: true, minLength: 1, maxLength: 32, patterns: [VERSION], sortable: true },
    adaptedModels: { type: 'text', required: true, minLength: 1, maxLength: 500, patterns: [MODEL_LIST] },
    activationTime: { type: 'datetime', sortable: true },
    // Archives, firmware and model files (often unrecognised bytes: octet-stream), configuration text,
    // and the pictures and videos of promotions; never HTML-like or executable content the browser would run.
    file: {
      type: 'file',
      maxBytes: PACKAGE_MAX_BYTES,
      accept: [
        'application/zip',
        'application/gzip',
        'application/x-tar',
        'application/x-xz',
        'application/x-bzip2',
        'application/x-7z-compressed',
        'application/vnd.android.package-archive',
        'application/octet-stream',
        'text/plain',
        'application/xml',
        'application/x-sqlite3',
        'image/*',
        'video/*',
      ],
    },
    uploadStatus: { type: 'enum', options: UPLOAD_STATUSES, readOnly: true, display: 'status', sortable: true },
    description: { type: 'textarea', maxLength: 500 },
    creator: { type: 'reference', reference: 'user', readOnly: true, onDelete: 'setNull' },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
    lastEditor: { type: 'reference', reference: 'user', readOnly: true, onDelete: 'setNull' },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['name', 'resourceType', 'version', 'adaptedModels', 'activationTime', 'uploadStatus', 'creator', 'createTime', 'lastEditor'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'resourceType', field: 'resourceType', operator: 'in', alwaysOn: true },
      { name: 'adaptedModelsLike', field: 'adaptedModels', operator: 'like' },
      { name: 'uploadStatus', field: 'uploadStatus', operator: 'eq' },
      { name: 'versionLike', field: 'version', operator: 'like' },
    ],
  },
  permissions: {
    page: 'deploymentPackage:page',
    show: 'deploymentPackage:page',
    create: 'deploymentPackage:add',
    edit: 'deploymentPackage:edit',
    delete: 'deploymentPackage:delete',
    export: 'deploymentPackage:page',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: {
    'deploymentPackage:page': 60401,
    'deploymentPackage:add': 60402,
    'deploymentPackage:edit': 60403,
    'deploymentPackage:delete': 60404,
  },
  // the list under Service › Setup's tabs (src/deployments/SetupPackagesList.tsx)
  customViews: { list: 'setupPackages' },
});

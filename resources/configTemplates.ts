// Service › generateConfigFile (docs/machine-configuration.md#generate-config-file): the configuration-template
// store. A template is one file a machine reads, a list of contents each named by an id unique within its
// template (a unique index on (template, content id) is the guarantee: 2002 naming `contentId`); one content can
// be replaced by its id. Generating combines a template's contents with the account's configurations (the latest
// version of each kind of ./configurationKinds.ts) into that file, previewed before it becomes a package of type
// `config` (server/configTemplates/).
import { defineResource } from './types';

/** The largest content body: 64 kB of text. */
export const CONFIG_CONTENT_MAX_LENGTH = 65_536;
/** How a content's body is read: as it is (`text`), or parsed (`json`: it must parse, 1004 otherwise). */
export const CONFIG_CONTENT_FORMATS = ['text', 'json'] as const;
export type ConfigContentFormat = (typeof CONFIG_CONTENT_FORMATS)[number];
/** The package resource type a generated file becomes (resources/deploymentPackage.ts RESOURCE_TYPES). */
export const CONFIG_FILE_RESOURCE_TYPE = 'config';
/** The generated file's `format` (docs/machine-configuration.md "The generated file"). */
export const CONFIG_FILE_FORMAT = 'rvm-config-file';

const MODEL = '[A-Za-z0-9 ._-]+';
const MODEL_LIST = { regex: `^\\s*${MODEL}(\\s*,\\s*${MODEL})*\\s*$`, message: 'resources.deploymentPackage.validation.modelList' } as const;
const CONTENT_ID = { regex: '^[A-Za-z0-9._-]+$', message: 'resources.configTemplateContent.validation.contentId' } as const;

/** Service › generateConfigFile (615): the template files. */
export const configTemplate = defineResource({
  name: 'configTemplate',
  apiPath: '/configuration/template',
  route: '/service/generateConfigFile',
  menuId: 615, // service (6) › generateConfigFile, resources/menu.ts
  table: 'config_template',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    targetModels: { type: 'text', required: true, minLength: 1, maxLength: 500, patterns: [MODEL_LIST], sortable: true },
    description: { type: 'textarea', maxLength: 500 },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['name', 'targetModels', 'description', 'updateTime'],
    defaultSort: { field: 'name', order: 'ASC' },
    filters: [{ name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true }],
  },
  permissions: {
    page: 'configTemplate:page',
    show: 'configTemplate:page',
    create: 'configTemplate:add',
    edit: 'configTemplate:edit',
    delete: 'configTemplate:delete',
    export: 'configTemplate:page',
  },
  // Permanent permission ids (roles store ids: never renumber): <menu id> then 01 page, 02 add, 03 edit, 04 delete.
  permissionIds: { 'configTemplate:page': 61501, 'configTemplate:add': 61502, 'configTemplate:edit': 61503, 'configTemplate:delete': 61504 },
  // the generic list with the Templates/Contents tabs and the Generate dialog (src/configTemplates/)
  customViews: { list: 'configTemplateList' },
});

/** A template's contents, in order (the Contents tab of generateConfigFile); deleting a template deletes them. */
export const configTemplateContent = defineResource({
  name: 'configTemplateContent',
  apiPath: '/configuration/template-content',
  route: '/service/generateConfigFile/contents',
  menuId: 615,
  table: 'config_template_content',
  nameField: 'contentId',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    templateId: { type: 'reference', reference: 'configTemplate', required: true, sortable: true, onDelete: 'cascade' },
    // unique within its template: the index is (template_id, content_id)
    contentId: { type: 'text', required: true, minLength: 1, maxLength: 64, patterns: [CONTENT_ID], unique: true, sortable: true },
    position: { type: 'number', integer: true, min: 1, max: 999, defaultValue: 1, sortable: true },
    format: { type: 'enum', options: CONFIG_CONTENT_FORMATS, defaultValue: 'text', sortable: true },
    body: { type: 'textarea', required: true, maxLength: CONFIG_CONTENT_MAX_LENGTH, display: 'excerpt' },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['templateId', 'position', 'contentId', 'format', 'body', 'updateTime'],
    defaultSort: { field: 'position', order: 'ASC' },
    filters: [
      { name: 'templateId', field: 'templateId', operator: 'eq', alwaysOn: true },
      { name: 'contentIdLike', field: 'contentId', operator: 'like', alwaysOn: true },
    ],
  },
  permissions: {
    page: 'configTemplateContent:page',
    show: 'configTemplateContent:page',
    create: 'configTemplateContent:add',
    edit: 'configTemplateContent:edit',
    delete: 'configTemplateContent:delete',
    export: 'configTemplateContent:page',
  },
  permissionIds: {
    'configTemplateContent:page': 61505,
    'configTemplateContent:add': 61506,
    'configTemplateContent:edit': 61507,
    'configTemplateContent:delete': 61508,
  },
  customViews: { list: 'configTemplateContentList' },
});

export const CONFIG_TEMPLATE_RESOURCES = [configTemplate, configTemplateContent] as const;

/** What `POST …/generate` answers (server/configTemplates/generate.ts): the preview the console shows. */
export interface Generated {
  templateId: number;
  templateName: string;
  targetModels: string;
  fileName: string;
  /** The file as stored in the package: the JSON above, two-space indented. */
  content: string;
  bytes: number;
  /** The sections in the file: each kind and its version. */
  sections: Array<{ kind: string; version: number; itemCount: number }>;
  /** Kinds asked for that have no saved version yet: left out of the file. */
  missing: string[];
}

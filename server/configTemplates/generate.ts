// The generated config file (docs/machine-configuration.md "The generated file"): one template's contents in their
// order, then one section per configuration kind asked for holding its latest saved version's number and items.
// The same template, contents and versions always make the same bytes (no time of generation inside), so a preview
// and the package made from it next agree.
import { and, asc, eq } from 'drizzle-orm';
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import { CONFIG_FILE_FORMAT, type ConfigContentFormat, type Generated } from '../../resources/configTemplates';
import type { ConfigurationItem } from '../../resources/machineConfiguration';
import type { Db } from '../db/client';
import { configTemplate, configTemplateContent } from '../db/schema/configTemplates';
import { latestVersion } from '../configurations/versions';
import { AppError } from '../lib/errors';

export interface GeneratedContent {
  id: string;
  format: ConfigContentFormat;
  /** `text`: the body as written; `json`: the body parsed. */
  value: unknown;
}

export interface GeneratedSection {
  kind: string;
  resourceType: string;
  version: number;
  items: ConfigurationItem[];
}

/** What a machine reads. */
export interface GeneratedFile {
  format: typeof CONFIG_FILE_FORMAT;
  v: 1;
  template: { name: string; targetModels: string };
  contents: GeneratedContent[];
  configurations: GeneratedSection[];
}

/** The configuration kinds in their declared order (resources/configurationKinds.ts). */
export const KIND_NAMES = Object.keys(CONFIGURATION_KINDS);

/** A template of `account` (2003 when it does not exist there). */
export const findTemplate = async (db: Db, account: number, templateId: number) => {
  const [row] = await db
    .select()
    .from(configTemplate)
    .where(and(eq(configTemplate.id, templateId), eq(configTemplate.licenseAccountId, account)))
    .limit(1);
  if (!row) throw new AppError('2003');
  return row;
};

const contentValue = (format: string, body: string): unknown => {
  if (format !== 'json') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    // stored before the check or by hand: carried as text rather than refusing the whole file
    return body;
  }
};

/** A file name a package can carry: the template's name reduced to safe characters. */
const fileNameOf = (name: string) => `${name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'config'}.json`;

export const generateConfigFile = async (db: Db, account: number, templateId: number, kinds: readonly string[] = KIND_NAMES): Promise<Generated> => {
  const template = await findTemplate(db, account, templateId);
  const contents = await db
    .select()
    .from(configTemplateContent)
    .where(and(eq(configTemplateContent.templateId, template.id), eq(configTemplateContent.licenseAccountId, account)))
    .orderBy(asc(configTemplateContent.position), asc(configTemplateContent.contentId));
  const wanted = new Set(kinds);
  const configurations: GeneratedSection[] = [];
  const missing: string[] = [];
  for (const kind of KIND_NAMES.filter((name) => wanted.has(name))) {
    const latest = await latestVersion(db, account, kind);
    if (!latest) {
      missing.push(kind);
      continue;
    }
    configurations.push({ kind, resourceType: CONFIGURATION_KINDS[kind].resourceType, version: latest.version, items: latest.items as ConfigurationItem[] });
  }
  const file: GeneratedFile = {
    format: CONFIG_FILE_FORMAT,
    v: 1,
    template: { name: template.name, targetModels: template.targetModels },
    contents: contents.map((row) => ({ id: row.contentId, format: row.format as ConfigContentFormat, value: contentValue(row.format, row.body) })),
    configurations,
  };
  const content = JSON.stringify(file, null, 2);
  return {
    templateId: template.id,
    templateName: template.name,
    targetModels: template.targetModels,
    fileName: fileNameOf(template.name),
    content,
    bytes: Buffer.byteLength(content, 'utf8'),
    sections: configurations.map((section) => ({ kind: section.kind, version: section.version, itemCount: section.items.length })),
    missing,
  };
};

// How a simulated machine reads a generated config file, a package of resource type `config`
// (docs/machine-configuration.md "The generated file", docs/machine-protocol.md#generated-config-files): strictly, as
// firmware would. Its configuration sections are what the machine acts on (each as its kind's own package);
// the template's contents are the operator's free text or JSON, kept and named in the diagnosis file but not
// interpreted, since no rule says what a content means to a machine.
import { CONFIG_FILE_FORMAT } from '../../resources/configTemplates';
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import type { ConfigurationItem } from '../../resources/machineConfiguration';

export interface ConfigFileSection {
  resourceType: string;
  version: number;
  items: ConfigurationItem[];
}

export interface ReadConfigFile {
  template: string;
  targetModels: string[];
  contentIds: string[];
  sections: ConfigFileSection[];
}

/** The package resource types a section may have: the configuration kinds' (resources/configurationKinds.ts). */
const SECTION_TYPES = new Set<string>(Object.values(CONFIGURATION_KINDS).map((kind) => kind.resourceType));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's parts, or a text saying why the machine cannot read it (what it reports with `failed`). */
export const readConfigFile = (content: Buffer): ReadConfigFile | string => {
  let value: unknown;
  try {
    value = JSON.parse(content.toString('utf8'));
  } catch {
    return 'Config file unreadable: not JSON';
  }
  if (!isObject(value) || value.format !== CONFIG_FILE_FORMAT) return `Config file unreadable: format is not ${CONFIG_FILE_FORMAT}`;
  if (value.v !== 1) return `Config file unreadable: unsupported version ${String(value.v)}`;
  const { template, contents, configurations } = value;
  if (!isObject(template) || typeof template.name !== 'string' || typeof template.targetModels !== 'string') return 'Config file unreadable: no template';
  if (!Array.isArray(contents) || !contents.every((entry) => isObject(entry) && typeof entry.id === 'string')) return 'Config file unreadable: contents';
  if (!Array.isArray(configurations)) return 'Config file unreadable: no configurations';
  const sections: ConfigFileSection[] = [];
  for (const section of configurations) {
    if (!isObject(section) || typeof section.resourceType !== 'string' || !SECTION_TYPES.has(section.resourceType)) {
      return `Config file unreadable: unknown configuration ${isObject(section) ? String(section.resourceType) : ''}`.trim();
    }
    if (sections.some((seen) => seen.resourceType === section.resourceType)) return `Config file unreadable: ${section.resourceType} twice`;
    if (!Number.isSafeInteger(section.version) || !Array.isArray(section.items) || !section.items.every(isObject)) {
      return `Config file unreadable: ${section.resourceType} section`;
    }
    sections.push({ resourceType: section.resourceType, version: section.version as number, items: section.items });
  }
  return {
    template: template.name,
    targetModels: template.targetModels
      .split(',')
      .map((model) => model.trim())
      .filter(Boolean),
    contentIds: contents.map((entry) => String((entry as { id: string }).id)),
    sections,
  };
};

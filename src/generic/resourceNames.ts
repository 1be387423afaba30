// `display: 'resourceName'` (resources/types.ts): an enum whose value names a resource, e.g. the audit log's
// resource (docs/audit-log.md). The declared options are code resources with enum labels; any other value is
// a configured type's name, shown by its own label (`resources.<name>.name`, merged at run time by
// src/resourceTypes/runtime.ts). Generic: no resource name is special here.
import type { ResourceDeclaration } from '../../resources/types';
import { RESOURCES } from '../../resources';
import { enumLabel, type Registry } from '../providers/registry';
import type { LabelTranslate } from './recordLabels';

const CODE_NAMES: ReadonlySet<string> = new Set(RESOURCES.map((declaration) => declaration.name));

/** The label of a resource name: the field's enum label when the catalogue has one, else the resource's singular name, else the name as it is. */
export const resourceNameText = (translate: LabelTranslate, declaration: ResourceDeclaration, field: string, value: string | number): string =>
  translate(enumLabel(declaration, field, value), { _: translate(`resources.${value}.name`, { smart_count: 1, _: String(value) }) });

/** Filter choices: the declared options, then the registry's configured declarations (those the code does not declare), labelled. */
export const resourceNameChoices = (translate: LabelTranslate, declaration: ResourceDeclaration, field: string, registry: Registry) => {
  const options = declaration.fields[field]?.options ?? [];
  const configured = registry.filter((candidate) => !CODE_NAMES.has(candidate.name) && !options.includes(candidate.name)).map((candidate) => candidate.name);
  return [...options, ...new Set(configured)].map((value) => ({ id: value, name: resourceNameText(translate, declaration, field, value) }));
};

// Filters on a `display: 'resourceName'` field (resources/types.ts; the audit log's resource, docs/audit-log.md):
// the schema takes any well-formed resource name (server/crud/schemas.ts, 1004 otherwise), and here each value
// must be one of the field's options or the name of an active configured type (a model whose fields live in one
// document, server/configuredTypes/model.ts); any other name answers 2003. Generic: no resource name is special.
import type { FieldDeclaration } from '../../resources/types';
import { TYPE_NAME_PATTERN } from '../../resources/configuredTypes';
import { AppError } from '../lib/errors';
import type { ModelRegistry, ResourceModel } from './model';

/** The schema of one value of a resourceName filter: a code resource's or a configured type's name. */
export const resourceNameSchema = { type: 'string', maxLength: 40, pattern: TYPE_NAME_PATTERN };

export const namesResource = (field: FieldDeclaration | undefined) => field?.type === 'enum' && field.display === 'resourceName';

/** Refuses (2003) a resourceName filter value that is neither an option nor an active configured type. */
export const checkResourceNameFilters = (model: ResourceModel, models: ModelRegistry, body: Record<string, unknown>) => {
  for (const filter of model.declaration.list.filters) {
    const field = model.declaration.fields[filter.field];
    const raw = body[filter.name];
    if (!namesResource(field) || raw === undefined || raw === null) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (value === null || value === '' || field.options?.includes(value as string)) continue;
      if (typeof value !== 'string' || !models.get(value)?.document) throw new AppError('2003');
    }
  }
};

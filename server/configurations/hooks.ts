// Every configuration kind's resource hooks: the shared versioning (./versions.ts) around the kind's own rules (./kindRules.ts).
import { CONFIGURATION_KINDS } from '../../resources/configurationKinds';
import type { ResourceHooks } from '../crud/hooks';
import { KIND_RULES } from './kindRules';
import { configurationHooks } from './versions';

export const CONFIGURATION_HOOKS: Readonly<Record<string, ResourceHooks>> = Object.fromEntries(
  Object.entries(CONFIGURATION_KINDS).map(([name, kind]) => [name, configurationHooks(kind, KIND_RULES[name])]),
);

// The console's names for the configured resource type definition (issue 9). The format, its
// converter to a resource declaration and its texts are shared with the server: resources/configuredTypes.ts.
export type { ConfiguredType, ConfiguredField, ConfiguredFieldType as ConfiguredFieldKind, LocalizedText } from '../../resources/configuredTypes';
export {
  CONFIGURED_ACTIONS,
  CONFIGURED_FIELD_TYPES as CONFIGURED_FIELD_KINDS,
  configuredRoute,
  configuredTexts,
  CUSTOM_MENU_PREFIX,
  menuChildKeys,
  LEGACY_ROUTE_PREFIX,
  toDeclaration as declarationOfConfiguredType,
} from '../../resources/configuredTypes';

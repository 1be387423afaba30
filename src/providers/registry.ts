// Naming between declarations and react-admin.
//
// ROUTING CHOICE: the react-admin resource name of a declaration is its console route without the
// leading slash ('systemSettings/user'), so react-admin's own routes (/<name>, /<name>/:id,
// /<name>/create, /<name>/:id/show) ARE the product's routes (docs/product-rules.md#menu-tree) and every link, redirect and "back" button
// react-admin builds lands on the visible route with no custom routing code. Because the name then
// no longer equals the i18n root, every label is passed explicitly from `resources.<declaration.name>`
// (see the *Label helpers), and the data provider maps the route name back to its declaration
// (it also accepts the bare declaration name, for callers outside react-admin's resource context).
import type { ResourceDeclaration } from '../../resources/types';

export type Registry = readonly ResourceDeclaration[];

/** The react-admin resource name of a declaration (its route without the leading slash). */
export const resourceNameOf = (declaration: ResourceDeclaration): string => declaration.route.replace(/^\/+/, '');

/** The declaration behind a react-admin resource name or a declaration name; undefined when unknown. */
export const findDeclaration = (registry: Registry, resource: string): ResourceDeclaration | undefined =>
  registry.find((declaration) => resourceNameOf(declaration) === resource) ?? registry.find((declaration) => declaration.name === resource);

/** Like findDeclaration, but an unknown resource is a programming error. */
export const requireDeclaration = (registry: Registry, resource: string): ResourceDeclaration => {
  const declaration = findDeclaration(registry, resource);
  if (!declaration) throw new Error(`Unknown resource "${resource}": not in the resource registry`);
  return declaration;
};

/** The react-admin resource name of the declaration a reference field points to. */
export const referenceResourceName = (registry: Registry, reference: string): string => resourceNameOf(requireDeclaration(registry, reference));

export const resourceLabel = (declaration: ResourceDeclaration) => `resources.${declaration.name}.name`;
export const fieldLabel = (declaration: ResourceDeclaration, field: string) => `resources.${declaration.name}.fields.${field}`;
export const filterLabel = (declaration: ResourceDeclaration, filter: string) => `resources.${declaration.name}.filters.${filter}`;
export const enumLabel = (declaration: ResourceDeclaration, field: string, value: string | number) => `resources.${declaration.name}.enums.${field}.${value}`;

/** Choices for an enum field, labels as i18n keys (SelectInput translates them). */
export const enumChoices = (declaration: ResourceDeclaration, field: string) =>
  (declaration.fields[field]?.options ?? []).map((value) => ({ id: value, name: enumLabel(declaration, field, value) }));

// Pure derivations of the configured resource types the signed-in user may list (GET
// /resource-types/active): their declarations beside the code-declared ones, their sidebar entries
// under their menu parent, and their labels as i18n messages. No React here (tests call these directly).
//
// Names (documented in docs/ARCHITECTURE.md), for a type named <name>: the declaration <name> (i18n root
// `resources.<name>`, from resources/configuredTypes.ts configuredTexts: `.name`, `.fields.<f>`,
// `.enums.<f>.<value>`, `.patterns.<f>.<i>`, `.rules.<i>`; plus `.filters.<filter key>`, the field's
// label), console route and react-admin resource `<area of its menu parent>/<name>` (e.g. `service/<name>`;
// resources/configuredTypes.ts configuredRoute), menu key `custom_<name>` (label
// `menu.custom_<name>`), menu identifier `custom:<name>` (resources/configuredTypes.ts).
import type { TranslationMessages } from 'ra-core';
import type { Locale } from '../../i18n';
import { MENU, walkMenu, type MenuNode } from '../../resources/menu';
import { LEGACY_ROUTE_PREFIX, MENU_PARENTS, menuAreaOf } from '../../resources/configuredTypes';
import { RESOURCES } from '../../resources';
import type { ResourceDeclaration } from '../../resources/types';
import { resourceNameOf } from '../providers/registry';
import { configuredRoute, configuredTexts, CUSTOM_MENU_PREFIX, declarationOfConfiguredType, type ConfiguredType } from './configuredType';

export interface RuntimeResources {
  /** The active configured types, as answered. */
  types: readonly ConfiguredType[];
  /** Code-declared declarations followed by the configured ones. */
  registry: readonly ResourceDeclaration[];
  /** resources/menu.ts with a node per configured type under its menu parent. */
  menu: MenuNode[];
}

export const menuKeyOf = (typeName: string) => `${CUSTOM_MENU_PREFIX}${typeName}`;

/**
 * Menu ids of configured entries: negative (never a seeded id), one per type in answer order. They only
 * tie a declaration to its sidebar node in the console; the server's permission rows have their own.
 */
const menuIdOf = (index: number) => -1 - index;
// (the declaration's own menuId is its parent's, resources/configuredTypes.ts: its permissions make the parent visible)

const menuNodeOf = (type: ConfiguredType, index: number): MenuNode => ({
  id: menuIdOf(index),
  key: menuKeyOf(type.name),
  identifier: `custom:${type.name}`,
  type: 'menu',
  route: configuredRoute(type),
  inMenu: true,
  children: [],
});

export const runtimeResources = (types: readonly ConfiguredType[], menu: MenuNode[] = MENU): RuntimeResources => {
  const active = types.filter((type) => type.status !== 'archived');
  const configured = active.map((type) => declarationOfConfiguredType(type));
  const childrenOf = (key: string) => active.flatMap((type, index) => (type.menuParent === key && type.actions.includes('page') ? [menuNodeOf(type, index)] : []));
  return {
    types: active,
    registry: [...RESOURCES, ...configured],
    // under a directory: after the sibling it names, else after its children; beside a top-level screen
    // (Search has none): right after it, so the screen's own entry stays a link
    menu: menu.flatMap((node) => {
      const extra = childrenOf(node.key);
      if (!extra.length) return [node];
      return node.children.length ? [{ ...node, children: placed(node.children, extra, active) }] : [node, ...extra];
    }),
  };
};

/** `children` with each configured entry right after the sibling its type names (in answer order), the rest at the end. */
const placed = (children: readonly MenuNode[], extra: readonly MenuNode[], types: readonly ConfiguredType[]): MenuNode[] => {
  const after = new Map(types.map((type) => [menuKeyOf(type.name), type.menuAfter]));
  const result = [...children];
  const unplaced: MenuNode[] = [];
  for (const node of extra) {
    const sibling = after.get(node.key);
    const index = sibling === undefined ? -1 : result.findIndex((candidate) => candidate.key === sibling);
    if (index < 0) unplaced.push(node);
    else {
      // after the sibling and the entries already placed after it
      let at = index + 1;
      while (at < result.length && extra.includes(result[at]) && after.get(result[at].key) === sibling) at += 1;
      result.splice(at, 0, node);
    }
  }
  return [...result, ...unplaced];
};

type Tree = Record<string, unknown>;

/** A configured type's texts in `locale` (the type's own), with a label per filter key of its list. */
const labelsOf = (type: ConfiguredType, declaration: ResourceDeclaration, locale: Locale): Tree => {
  const texts = configuredTexts(type, locale) as Tree & { fields: Record<string, string> };
  const filters = Object.fromEntries(declaration.list.filters.map((filter) => [filter.name, texts.fields[filter.field] ?? filter.field]));
  return { ...texts, filters };
};

/** `base` plus every configured type's labels, also under its react-admin resource name (its route). */
export const withConfiguredMessages = (base: TranslationMessages, runtime: RuntimeResources, locale: Locale): TranslationMessages => {
  if (runtime.types.length === 0) return base;
  const resources: Tree = { ...(base.resources as Tree) };
  const menu: Tree = { ...(base.menu as Tree) };
  for (const type of runtime.types) {
    const declaration = runtime.registry.find((candidate) => candidate.name === type.name && candidate.route === configuredRoute(type));
    if (!declaration) continue;
    const labels = labelsOf(type, declaration, locale);
    resources[type.name] = labels;
    resources[resourceNameOf(declaration)] = labels;
    menu[menuKeyOf(type.name)] = type.labels[locale];
  }
  return { ...base, resources, menu } as TranslationMessages;
};

/** Routes the code owns: the menu's screens and the code-declared resources'. */
const CODE_ROUTES: ReadonlySet<string> = new Set([...walkMenu().flatMap((node) => (node.route ? [node.route] : [])), ...RESOURCES.map((declaration) => declaration.route)]);
const MENU_AREAS: ReadonlySet<string> = new Set(MENU_PARENTS.map(menuAreaOf));

/**
 * Whether `pathname` may be a configured type's screen (`/<area>/<name>...` that no code screen owns), or
 * one of its old `/custom/<name>` addresses: the console waits for the types before routing such a path.
 */
export const mayBeConfiguredRoute = (pathname: string): boolean => {
  if (pathname.startsWith(LEGACY_ROUTE_PREFIX)) return true;
  const [, area, name] = pathname.split('/');
  return Boolean(area && name) && MENU_AREAS.has(`/${area}`) && !CODE_ROUTES.has(`/${area}/${name}`);
};

/** The current address of an old `/custom/<name>...` one (same rest of the path), when that type is known. */
export const movedConfiguredRoute = (pathname: string, types: readonly ConfiguredType[]): string | undefined => {
  if (!pathname.startsWith(LEGACY_ROUTE_PREFIX)) return undefined;
  const [name, ...rest] = pathname.slice(LEGACY_ROUTE_PREFIX.length).split('/');
  const type = types.find((candidate) => candidate.name === name);
  return type ? [configuredRoute(type), ...rest].join('/') : undefined;
};

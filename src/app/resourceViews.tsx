// The console's one entry point for resources: a react-admin <Resource> per declaration, with the
// generic (or a declaration's customViews) list/show/create/edit, each behind its permission: react-admin's
// <CanAccess> (authProvider.canAccess, src/permissions/canAccess.ts); refused, the user lands on the /401 page
// (docs/product-rules.md#screens-and-routes) instead of a screen whose every call the server would refuse.
// Routing: the resource name is the declaration's route without the leading slash (registry.ts), so
// the URLs are the product's routes (docs/product-rules.md#menu-tree) such as /systemSettings/user, /systemSettings/user/5, .../create.
import { lazy, type ComponentType, type ReactElement } from 'react';
import { CanAccess, Loading, Resource } from 'react-admin';
import { Navigate } from 'react-router-dom';
import { RESOURCES } from '../../resources';
import type { Action, ResourceDeclaration, View } from '../../resources/types';
import { CUSTOM_VIEWS } from './customViews';
import { DeclarationProvider } from '../generic/DeclarationContext';
import { resourceLabel, resourceNameOf, type Registry } from '../providers/registry';

/** The permission that opens each view; a view whose action the declaration lacks does not exist. */
export const VIEW_ACTIONS: Readonly<Record<View, Action>> = { list: 'page', show: 'show', create: 'create', edit: 'edit' };

// Lazy (issue 8): the generic views (react-admin's lists and forms, the date pickers) are a chunk of
// their own, loaded with the first resource screen, not with the console's shell.
export const GENERIC_VIEWS: Readonly<Record<View, ComponentType>> = {
  list: lazy(() => import('../generic/GenericList').then((module) => ({ default: module.GenericList }))),
  show: lazy(() => import('../generic/GenericShow').then((module) => ({ default: module.GenericShow }))),
  create: lazy(() => import('../generic/GenericForm').then((module) => ({ default: module.GenericCreate }))),
  edit: lazy(() => import('../generic/GenericForm').then((module) => ({ default: module.GenericEdit }))),
};

/** The component rendering a view: the declaration's hand-written one if it names one, else the generic one. */
export const viewComponentFor = (declaration: ResourceDeclaration, view: View, customViews: Readonly<Record<string, ComponentType>> = CUSTOM_VIEWS): ComponentType => {
  const key = declaration.customViews?.[view];
  if (key === undefined) return GENERIC_VIEWS[view];
  const custom = customViews[key];
  if (!custom) throw new Error(`Resource "${declaration.name}": custom view "${key}" is not in src/app/customViews.ts`);
  return custom;
};

const viewElement = (declaration: ResourceDeclaration, registry: Registry, view: View): ReactElement | undefined => {
  const action = VIEW_ACTIONS[view];
  if (!declaration.permissions[action]) return undefined;
  const Component = viewComponentFor(declaration, view);
  return (
    <DeclarationProvider declaration={declaration} registry={registry}>
      <CanAccess resource={resourceNameOf(declaration)} action={view} loading={<Loading />} accessDenied={<Navigate to="/401" replace />}>
        <Component />
      </CanAccess>
    </DeclarationProvider>
  );
};

export const buildResources = (registry: Registry = RESOURCES): ReactElement[] =>
  registry.map((declaration) => (
    <Resource
      key={declaration.name}
      name={resourceNameOf(declaration)}
      options={{ label: resourceLabel(declaration), declaration: declaration.name }}
      recordRepresentation={declaration.nameField}
      list={viewElement(declaration, registry, 'list')}
      show={viewElement(declaration, registry, 'show')}
      create={viewElement(declaration, registry, 'create')}
      edit={viewElement(declaration, registry, 'edit')}
    />
  ));

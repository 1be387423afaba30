// The principle on the console side: a declaration the console has never seen (tests/fixtures/gadget.ts),
// passed as the registry, yields a routed resource and working data calls with no other code.
import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { buildResources, createDataProvider, viewComponentFor } from '../../src/generic';
import { GenericCreate, GenericEdit } from '../../src/generic/GenericForm';
import { GenericList } from '../../src/generic/GenericList';
import { GenericShow } from '../../src/generic/GenericShow';
import { UserList } from '../../src/resources/UserList';
import { fakeHttp } from '../fixtures/fakeHttp';
import { gadget, gizmo } from '../fixtures/gadget';

type Props = Record<string, unknown>;
const propsOf = (element: unknown) => (element as ReactElement<Props>).props;

/** The view component inside DeclarationProvider > RequirePermission > view. */
const viewOf = (element: unknown) => {
  const provider = propsOf(element);
  const guard = propsOf(provider.children);
  return { declaration: provider.declaration, action: guard.action, component: (guard.children as ReactElement).type };
};

describe('buildResources with a fixture registry', () => {
  const registry = [gadget, gizmo];
  const [gadgetResource, gizmoResource] = buildResources(registry);

  it('gives one <Resource> per declaration, named by its route', () => {
    expect(isValidElement(gadgetResource)).toBe(true);
    expect(propsOf(gadgetResource).name).toBe('service/gadget');
    expect(propsOf(gizmoResource).name).toBe('service/gizmo');
    expect(propsOf(gadgetResource).options).toEqual({ label: 'resources.gadget.name', declaration: 'gadget' });
    expect(propsOf(gadgetResource).recordRepresentation).toBe('label');
  });

  it('derives the views from the declared actions, each behind its permission', () => {
    const props = propsOf(gadgetResource);
    expect(viewOf(props.list)).toEqual({ declaration: gadget, action: 'page', component: GenericList });
    expect(viewOf(props.show)).toEqual({ declaration: gadget, action: 'show', component: GenericShow });
    expect(viewOf(props.create)).toEqual({ declaration: gadget, action: 'create', component: GenericCreate });
    expect(viewOf(props.edit)).toEqual({ declaration: gadget, action: 'edit', component: GenericEdit });
    // gizmo declares only 'page': no show/create/edit routes
    expect(propsOf(gizmoResource).show).toBeUndefined();
    expect(propsOf(gizmoResource).create).toBeUndefined();
    expect(propsOf(gizmoResource).edit).toBeUndefined();
  });

  it('makes the whole registry reachable from every view (references resolve against it)', () => {
    expect(propsOf(propsOf(gadgetResource).list).registry).toBe(registry);
  });

  it('customViews picks a hand-written view; an unknown key fails loudly', () => {
    expect(viewComponentFor(RESOURCES.find((declaration) => declaration.name === 'user')!, 'list')).toBe(UserList);
    expect(viewComponentFor({ ...gadget, customViews: { show: 'special' } }, 'show', { special: GenericList })).toBe(GenericList);
    expect(() => viewComponentFor({ ...gadget, customViews: { show: 'missing' } }, 'show', {})).toThrow(/missing/);
  });

  it('the default registry yields every declared resource at its SPEC route', () => {
    expect(buildResources().map((element) => propsOf(element).name)).toEqual([
      'systemSettings/account',
      'systemSettings/user',
      'systemSettings/role',
      'systemSettings/permission',
      'installation/fleet',
      'installation/rvm',
      'service/events',
      'service/eventNotifications',
    ]);
  });
});

describe('createDataProvider with a fixture registry', () => {
  it('serves the fixture resource over the generic contract', async () => {
    const { http, download, calls } = fakeHttp({
      'POST /gadget/page': { list: [{ id: 1, label: 'a', owner: 2 }], total: 1, pageNum: 1, pageSize: 20 },
      'GET /gizmo/list': [{ id: 2, name: 'Gizmo two' }],
      'POST /gadget': (call: { body?: object }) => ({ id: 3, ...call.body }),
    });
    const provider = createDataProvider(http, download, [gadget, gizmo]);
    await provider.getList('service/gadget', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'colour', order: 'ASC' }, // not sortable: left out
      filter: { labelLike: 'a', boughtTo: '2024-02-29' },
    });
    const owners = await provider.getMany('service/gizmo', { ids: [2], meta: { labels: true } });
    await provider.create('service/gadget', { data: { label: 'b', weight: '7', colour: 'red', createTime: 'x' } });
    expect(calls[0].body).toEqual({ pageNum: 1, pageSize: 20, labelLike: 'a', boughtTo: new Date(2024, 1, 29, 23, 59, 59, 999).toISOString() });
    expect(owners.data).toEqual([{ id: 2, name: 'Gizmo two', title: 'Gizmo two' }]);
    expect(calls[2]).toMatchObject({ method: 'POST', path: '/gadget', body: { label: 'b', weight: 7, colour: 'red' } });
  });

  it('does not know resources outside its registry', async () => {
    const { http, download } = fakeHttp();
    await expect(createDataProvider(http, download, [gadget]).getOne('systemSettings/user', { id: 1 })).rejects.toThrow(/Unknown resource/);
  });
});

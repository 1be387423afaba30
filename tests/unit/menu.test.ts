import { describe, expect, it } from 'vitest';
import { MENU, walkMenu } from '../../resources/menu';
import { RESOURCES } from '../../resources';

describe('menu and permission tree', () => {
  it('has unique ids and identifiers (the server seeds its permission table from them)', () => {
    const nodes = walkMenu();
    expect(new Set(nodes.map((node) => node.id)).size).toBe(nodes.length);
    expect(new Set(nodes.map((node) => node.identifier)).size).toBe(nodes.length);
  });

  it("keeps the product's ids for the top-level areas", () => {
    const ids = Object.fromEntries(MENU.map((node) => [node.key, node.id]));
    expect(ids).toEqual({ home: 0, search: 1, installation: 2, reports: 3, service: 6, promotion: 113, apis: 12, systemSettings: 21 });
  });

  it('places every declared resource under an existing menu entry, each route declared once', () => {
    const ids = new Set(walkMenu().map((node) => node.id));
    for (const declaration of RESOURCES) expect(ids.has(declaration.menuId), declaration.name).toBe(true);
    const routes = RESOURCES.map((declaration) => declaration.route);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

// The menu (docs/product-rules.md#menu-tree) and the permission tree derived from it. Framework-neutral: the
// console builds its sidebar from it (filtered by docs/product-rules.md#permission-model), the server seeds its permission
// table from it. Every entry's id is written here and permanent: roles store permission ids
// (sys_role_permission), so an id must always mean the same identifier. Top-level ids are the
// product's menu ids; existing children keep the ids they were first given (parent id x 100 plus
// their position then; Home's 9901, 9902). A new entry takes a new, unused id; never renumber one
// (tests/unit/permissionIdentity.test.ts holds the full list and fails when an identity changes).

export type PermissionType = 'directory' | 'menu' | 'button';

export interface MenuNode {
  /** Permanent permission id (never reused for another identifier). */
  id: number;
  /** i18n key under `menu.` */
  key: string;
  /** Permission identifier (checked by the server and the permission component). */
  identifier: string;
  type: PermissionType;
  /** Console route; absent for buttons and for tabs that live inside another page. */
  route?: string;
  /** Icon name, mapped to an icon by the console. */
  icon?: string;
  /** Shown in the sidebar (tabs and buttons are not). */
  inMenu: boolean;
  /**
   * Under Home (always visible): shown to everyone without a permission. Home's other entries need
   * their own permission (seeded, so roles can grant it).
   */
  open?: boolean;
  children: MenuNode[];
}

interface Spec {
  /** Permanent id (see the top of this file). */
  id: number;
  key: string;
  open?: boolean;
  route?: string;
  icon?: string;
  inMenu?: boolean;
  type?: PermissionType;
  children?: Spec[];
}

/** Menu screens of an area: [key, permanent id] pairs. */
const screens = (area: string, entries: ReadonlyArray<readonly [string, number]>): Spec[] => entries.map(([key, id]) => ({ id, key, route: `/${area}/${key}` }));

const RVM_TABS = [
  ['Overview', 20201],
  ['ProfileSetting', 20202],
  ['RemoteControl', 20203],
  ['StatusHistory', 20204],
  ['OnlineOfflineHistory', 20205],
  ['ServiceSessions', 20206],
  ['EventHistory', 20207],
  ['ConsumerSessions', 20208],
] as const;

const SERVICE_CHILDREN = [
  ['performance', 601],
  ['events', 602],
  ['eventNotifications', 603],
  ['setup', 604],
  ['softwareUpgrade', 605],
  ['ai', 606],
  ['assortment', 607],
  ['mainConfig', 608],
  ['langConfig', 609],
  ['group', 610],
  ['payout', 611],
  ['refund', 612],
  ['sorting', 613],
  ['h30config', 614],
  ['generateConfigFile', 615],
  ['personnalSetting', 616],
  ['personnalDeploy', 617],
  ['createServicePersonnelPackage', 618],
  ['banManagement', 619],
  ['getSamples', 620],
  ['imageLabeling', 621],
  ['imageClassify', 622],
  ['trainingTask', 623],
] as const;

const APIS_CHILDREN = [
  ['csApi', 1201],
  ['csApiTransaction', 1202],
  ['csThridApp', 1203],
  ['ciApi', 1204],
  ['ciApiTransaction', 1205],
  ['ciThridApp', 1206],
  ['statusApi', 1207],
  ['statusApiTransaction', 1208],
  ['statusThridApp', 1209],
  ['tcRvmList', 1210],
  ['tcTransactionList', 1211],
  ['notificationList', 1212],
] as const;

/** Top-level entries with their product ids (docs/product-rules.md#menu-tree). Home (id 0) is always visible. */
const TOP: Spec[] = [
  {
    id: 0,
    key: 'home',
    route: '/index',
    icon: 'home',
    type: 'directory',
    children: [
      { id: 9901, key: 'index', route: '/index/index', icon: 'dashboard', open: true },
      { id: 9902, key: 'quarantineOverview', route: '/index/quarantineOverview', icon: 'quarantine' },
    ],
  },
  { id: 1, key: 'search', route: '/search/search', icon: 'search', type: 'menu' },
  {
    id: 2,
    key: 'installation',
    route: '/installation/fleetManagement',
    icon: 'installation',
    type: 'directory',
    children: [
      { id: 201, key: 'fleetManagement', route: '/installation/fleetManagement', icon: 'fleet' },
      {
        id: 202,
        key: 'rvmpage',
        route: '/installation/rvmpage',
        inMenu: false,
        children: RVM_TABS.map(([key, id]) => ({ id, key, inMenu: false })),
      },
    ],
  },
  {
    id: 3,
    key: 'reports',
    route: '/reports/showreport',
    icon: 'reports',
    type: 'directory',
    children: [
      { id: 301, key: 'showreport', route: '/reports/showreport', inMenu: false },
      ...screens('reports', [
        ['report', 302],
        ['notifications', 303],
      ]),
    ],
  },
  { id: 6, key: 'service', route: '/service/serviceManager', icon: 'service', type: 'directory', children: screens('service', SERVICE_CHILDREN) },
  {
    id: 113,
    key: 'promotion',
    route: '/promotion/promotionManager',
    icon: 'promotion',
    type: 'directory',
    children: screens('promotion', [
      ['promotionResource', 11301],
      ['promotionDeployment', 11302],
      ['createPromotionOption', 11303],
      ['defaultPromotion', 11304],
    ]),
  },
  { id: 12, key: 'apis', route: '/apis/apisManager', icon: 'apis', type: 'directory', children: screens('apis', APIS_CHILDREN) },
  {
    id: 21,
    key: 'systemSettings',
    route: '/systemSettings/systemSettingIndex',
    icon: 'systemSettings',
    type: 'directory',
    children: screens('systemSettings', [
      ['account', 2101],
      ['user', 2102],
      ['role', 2103],
      ['permission', 2104],
      ['resourceTypes', 2105],
      ['auditLog', 2106],
      ['mailOutbox', 2107],
    ]),
  },
];

const build = (spec: Spec, parentIdentifier: string | null): MenuNode => {
  const identifier = parentIdentifier ? `${parentIdentifier}:${spec.key}` : spec.key;
  return {
    id: spec.id,
    key: spec.key,
    identifier,
    type: spec.type ?? (spec.children?.length ? 'directory' : 'menu'),
    route: spec.route,
    icon: spec.icon,
    inMenu: spec.inMenu ?? true,
    ...(spec.open ? { open: true } : {}),
    children: (spec.children ?? []).map((child) => build(child, identifier)),
  };
};

export const MENU: MenuNode[] = TOP.map((spec) => build(spec, null));

/** Id of the always-visible Home entry. */
export const HOME_MENU_ID = 0;

export const walkMenu = (nodes: MenuNode[] = MENU): MenuNode[] => nodes.flatMap((node) => [node, ...walkMenu(node.children)]);

export const findMenuByKey = (key: string): MenuNode | undefined => walkMenu().find((node) => node.key === key);

export const findMenuById = (id: number): MenuNode | undefined => walkMenu().find((node) => node.id === id);

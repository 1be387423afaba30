// The menu of SPEC section 2 and the permission tree derived from it. Framework-neutral: the
// console builds its sidebar from it (filtered by SPEC section 6), the server seeds its permission
// table from it. Top-level ids are SPEC section 6's menu ids; a child's id is its parent's id
// times 100 plus its position, so ids are stable across installations. Home is id 0, so its
// children count from 99 instead (9901, 9902) to stay clear of the top-level ids.

export type PermissionType = 'directory' | 'menu' | 'button';

export interface MenuNode {
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
  children: MenuNode[];
}

interface Spec {
  key: string;
  route?: string;
  icon?: string;
  inMenu?: boolean;
  type?: PermissionType;
  children?: Spec[];
}

const screens = (area: string, keys: string[]): Spec[] =>
  keys.map((key) => ({ key, route: `/${area}/${key}` }));

const RVM_TABS = [
  'Overview',
  'ProfileSetting',
  'RemoteControl',
  'StatusHistory',
  'OnlineOfflineHistory',
  'ServiceSessions',
  'EventHistory',
  'ConsumerSessions',
];

const SERVICE_CHILDREN = [
  'performance', 'events', 'eventNotifications', 'setup', 'softwareUpgrade', 'ai', 'assortment',
  'mainConfig', 'langConfig', 'group', 'payout', 'refund', 'sorting', 'h30config', 'generateConfigFile',
  'personnalSetting', 'personnalDeploy', 'createServicePersonnelPackage', 'banManagement', 'getSamples',
  'imageLabeling', 'imageClassify', 'trainingTask',
];

const APIS_CHILDREN = [
  'csApi', 'csApiTransaction', 'csThridApp', 'ciApi', 'ciApiTransaction', 'ciThridApp', 'statusApi',
  'statusApiTransaction', 'statusThridApp', 'tcRvmList', 'tcTransactionList', 'notificationList',
];

/** Top-level entries with their SPEC section 6 ids. Home (id 0) is always visible. */
const TOP: Array<[number, Spec]> = [
  [
    0,
    {
      key: 'home', route: '/index', icon: 'home', type: 'directory',
      children: [
        { key: 'index', route: '/index/index', icon: 'dashboard' },
        { key: 'quarantineOverview', route: '/index/quarantineOverview', icon: 'quarantine' },
      ],
    },
  ],
  [1, { key: 'search', route: '/search/search', icon: 'search', type: 'menu' }],
  [
    2,
    {
      key: 'installation', route: '/installation/fleetManagement', icon: 'installation', type: 'directory',
      children: [
        { key: 'fleetManagement', route: '/installation/fleetManagement', icon: 'fleet' },
        {
          key: 'rvmpage', route: '/installation/rvmpage', inMenu: false,
          children: RVM_TABS.map((key) => ({ key, inMenu: false })),
        },
      ],
    },
  ],
  [
    3,
    {
      key: 'reports', route: '/reports/showreport', icon: 'reports', type: 'directory',
      children: [
        { key: 'showreport', route: '/reports/showreport', inMenu: false },
        ...screens('reports', ['report', 'notifications']),
      ],
    },
  ],
  [6, { key: 'service', route: '/service/serviceManager', icon: 'service', type: 'directory', children: screens('service', SERVICE_CHILDREN) }],
  [
    113,
    {
      key: 'promotion', route: '/promotion/promotionManager', icon: 'promotion', type: 'directory',
      children: screens('promotion', ['promotionResource', 'promotionDeployment', 'createPromotionOption', 'defaultPromotion']),
    },
  ],
  [12, { key: 'apis', route: '/apis/apisManager', icon: 'apis', type: 'directory', children: screens('apis', APIS_CHILDREN) }],
  [
    21,
    {
      key: 'systemSettings', route: '/systemSettings/systemSettingIndex', icon: 'systemSettings', type: 'directory',
      children: screens('systemSettings', ['account', 'user', 'role', 'permission']),
    },
  ],
];

const build = (id: number, spec: Spec, parentIdentifier: string | null): MenuNode => {
  const identifier = parentIdentifier ? `${parentIdentifier}:${spec.key}` : spec.key;
  return {
    id,
    key: spec.key,
    identifier,
    type: spec.type ?? (spec.children?.length ? 'directory' : 'menu'),
    route: spec.route,
    icon: spec.icon,
    inMenu: spec.inMenu ?? true,
    children: (spec.children ?? []).map((child, index) => build((id === 0 ? 99 : id) * 100 + index + 1, child, identifier)),
  };
};

export const MENU: MenuNode[] = TOP.map(([id, spec]) => build(id, spec, null));

/** Id of the always-visible Home entry. */
export const HOME_MENU_ID = 0;

export const walkMenu = (nodes: MenuNode[] = MENU): MenuNode[] =>
  nodes.flatMap((node) => [node, ...walkMenu(node.children)]);

export const findMenuByKey = (key: string): MenuNode | undefined =>
  walkMenu().find((node) => node.key === key);

export const findMenuById = (id: number): MenuNode | undefined => walkMenu().find((node) => node.id === id);

// THE registry of built menu screens, keyed by the menu route of resources/menu.ts.
//
// Every route of the menu gets a page: the component registered here, else (for an area's own
// route) a list of the area's screens, else the "not available yet" page. To ship a real screen,
// add one line, preferably lazy so its code loads only when opened:
//
//   '/service/performance': lazyScreen(() => import('../performance/PerformancePage')),
//
// The component receives `{ node }` (its menu node) and is rendered inside the layout at
// `<route>/*`, so it may declare nested routes (detail pages) of its own. Access follows the menu
// permissions (docs/product-rules.md#permission-model); a user who may not see the entry is sent to /401.
import { lazy } from 'react';
import type { Screen } from '../pages/screenProps';
import { HomePage } from './HomePage';

/** The home route (docs/product-rules.md#screens-and-routes): where '/', '/login' (signed in) and "back to homepage" lead. */
export const HOME_ROUTE = '/index/index';

/**
 * A screen whose code can be asked for before it renders: the menu route calls `preload` while it still waits
 * for its permission answer and the screens' texts, so the chunk and the texts are fetched together.
 */
export type MenuScreenComponent = Screen & { preload?: () => Promise<unknown> };

const lazyScreen = (load: () => Promise<{ default: Screen }>): MenuScreenComponent => Object.assign(lazy(load), { preload: load });

export const SCREENS: Readonly<Record<string, MenuScreenComponent>> = {
  [HOME_ROUTE]: HomePage,
  '/index/quarantineOverview': lazyScreen(() => import('../quarantine/QuarantinePage')),
  '/search/search': lazyScreen(() => import('../search/SearchPage')),
  '/installation/fleetManagement': lazyScreen(() => import('../installation/FleetManagementPage')),
  '/installation/rvmpage': lazyScreen(() => import('../installation/machine/MachinePageScreen')),
  '/service/performance': lazyScreen(() => import('../performance/PerformancePage')),
  '/service/softwareUpgrade': lazyScreen(() => import('../deployments/SoftwareUpgradePage')),
  '/service/ai': lazyScreen(() => import('../deployments/AiPage')),
  '/service/getSamples': lazyScreen(() => import('../aiTraining/GetSamplesPage')),
  '/service/imageLabeling': lazyScreen(() => import('../aiTraining/LabelingPage')),
  '/service/imageClassify': lazyScreen(() => import('../aiTraining/ClassifyPage')),
  '/service/trainingTask': lazyScreen(() => import('../aiTraining/TrainingTasksPage')),
  '/service/createServicePersonnelPackage': lazyScreen(() => import('../personnel/PersonnelPackagePage')),
  '/service/personnalDeploy': lazyScreen(() => import('../personnel/PersonnelDeployPage')),
  '/promotion/promotionDeployment': lazyScreen(() => import('../promotions/PromotionDeploymentPage')),
  '/reports/report': lazyScreen(() => import('../reports/ReportPage')),
  '/systemSettings/resourceTypes': lazyScreen(() => import('../resourceTypes/ResourceTypesPage')),
};

// THE registry of built menu screens, keyed by the menu route of resources/menu.ts.
//
// Every route of the menu gets a page: the component registered here, else (for an area's own
// route) a list of the area's screens, else the "not available yet" page. To ship a real screen,
// add one line, preferably lazy so its code loads only when opened:
//
//   '/service/performance': lazy(() => import('../performance/PerformancePage')),
//
// The component receives `{ node }` (its menu node) and is rendered inside the layout at
// `<route>/*`, so it may declare nested routes (detail pages) of its own. Access follows the menu
// permissions (docs/product-rules.md#permission-model); a user who may not see the entry is sent to /401.
import { lazy } from 'react';
import type { Screen } from '../pages/screenProps';
import { HomePage } from './HomePage';

/** The home route (docs/product-rules.md#screens-and-routes): where '/', '/login' (signed in) and "back to homepage" lead. */
export const HOME_ROUTE = '/index/index';

export const SCREENS: Readonly<Record<string, Screen>> = {
  [HOME_ROUTE]: HomePage,
  '/index/quarantineOverview': lazy(() => import('../quarantine/QuarantinePage')),
  '/search/search': lazy(() => import('../search/SearchPage')),
  '/installation/fleetManagement': lazy(() => import('../installation/FleetManagementPage')),
  '/installation/rvmpage': lazy(() => import('../installation/machine/MachinePageScreen')),
  '/service/performance': lazy(() => import('../performance/PerformancePage')),
  '/service/softwareUpgrade': lazy(() => import('../deployments/SoftwareUpgradePage')),
  '/service/ai': lazy(() => import('../deployments/AiPage')),
  '/service/getSamples': lazy(() => import('../aiTraining/GetSamplesPage')),
  '/service/imageLabeling': lazy(() => import('../aiTraining/LabelingPage')),
  '/service/trainingTask': lazy(() => import('../aiTraining/TrainingTasksPage')),
  '/service/createServicePersonnelPackage': lazy(() => import('../personnel/PersonnelPackagePage')),
  '/service/personnalDeploy': lazy(() => import('../personnel/PersonnelDeployPage')),
  '/promotion/promotionDeployment': lazy(() => import('../promotions/PromotionDeploymentPage')),
  '/reports/report': lazy(() => import('../reports/ReportPage')),
  '/systemSettings/resourceTypes': lazy(() => import('../resourceTypes/ResourceTypesPage')),
};

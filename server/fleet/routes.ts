// Every route of the installation screens (fleet tree, machine page tabs, search, quarantine,
// item pictures), registered inside the API plugin next to the generic CRUD routes.
import type { TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { registerConsumerSessionRoutes } from './consumerSessions';
import { registerFleetTreeRoutes } from './fleetTree';
import { registerHistoryRoutes } from './history';
import { registerMachinePageRoutes } from './machinePage';
import { registerPictureRoutes } from './pictures';
import { registerSearchRoutes } from './search';

export const registerFleetRoutes = (app: TypedApp, services: Services) => {
  registerFleetTreeRoutes(app, services);
  registerMachinePageRoutes(app, services);
  registerHistoryRoutes(app, services);
  registerConsumerSessionRoutes(app, services);
  registerSearchRoutes(app, services);
  registerPictureRoutes(app);
};

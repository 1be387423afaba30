// The English catalogue: the reference. Its literal type is what the Chinese one is checked against.
import { app } from './app';
import { menu } from './menu';
import { generic } from './generic';
import { validation } from './validation';
import { errors } from './errors';
import { resources } from './resources';
import { fleet, fleetResources } from './fleet';
import { installation } from './installation';
import { remote } from './remote';
import { events, eventResources } from './events';
import { dashboard } from './dashboard';
import { performance } from './performance';
import { reports } from './reports';
import { notifications, notificationResources } from './notifications';
import { resourceTypes } from './resourceTypes';
import { auditResources } from './audit';
import { deployments } from './deployments';
import { hookups, hookupResources } from './hookups';
import { personnel, personnelResources } from './personnel';
import { aiTraining } from './aiTraining';
import { promotions, promotionResources } from './promotions';
import { machineConfiguration, configurationResources } from './machineConfiguration';
import { groupResources } from './configurationGroups';
import { configTemplates, configTemplateResources } from './configTemplates';

// The fleet declarations' labels join the others under `resources` (the generic views read them there).
export const en = {
  app,
  menu,
  generic,
  validation,
  errors,
  resources: {
    ...resources,
    ...fleetResources,
    ...eventResources,
    ...notificationResources,
    ...auditResources,
    ...hookupResources,
    ...personnelResources,
    ...promotionResources,
    ...configurationResources,
    ...groupResources,
    ...configTemplateResources,
  },
  fleet,
  installation,
  events,
  remote,
  dashboard,
  notifications,
  reports,
  performance,
  resourceTypes,
  hookups,
  deployments,
  personnel,
  aiTraining,
  promotions,
  machineConfiguration,
  configTemplates,
} as const;
export type AppMessages = typeof en;

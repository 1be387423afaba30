// Per-resource hooks by resource name. A resource without special rules needs no entry here.
import type { PasswordHasher } from '../auth/passwords';
import type { ResourceHooks } from '../crud/hooks';
import { CONFIGURATION_HOOKS } from '../configurations/hooks';
import { CONFIG_TEMPLATE_HOOKS } from '../configTemplates/hooks';
import { accountHooks } from './account';
import { permissionHooks } from './permission';
import { roleHooks } from './role';
import { userHooks } from './user';
import { fleetHooks } from './fleet';
import { machineHooks } from './machine';
import { eventHooks } from './event';
import { eventNotificationHooks } from './eventNotification';
import { reportNotificationHooks } from './reportNotification';
import { auditLogHooks } from './auditLog';
import { mailOutboxHooks } from './mailOutbox';
import { deploymentPackageHooks } from './deploymentPackage';
import { deploymentHooks } from './deployment';
import { defaultPromotionHooks } from './promotions';
import { personnelAccessLevelHooks, servicePersonnelHooks } from './servicePersonnel';
import { consumerBanHooks } from './consumerBan';

export const resourceHooks = (hasher: PasswordHasher): Record<string, ResourceHooks> => ({
  account: accountHooks,
  user: userHooks(hasher),
  role: roleHooks,
  permission: permissionHooks,
  fleet: fleetHooks,
  machine: machineHooks,
  event: eventHooks,
  eventNotification: eventNotificationHooks,
  reportNotification: reportNotificationHooks,
  auditLog: auditLogHooks,
  mailOutbox: mailOutboxHooks,
  deploymentPackage: deploymentPackageHooks,
  deployment: deploymentHooks,
  ...CONFIGURATION_HOOKS,
  ...CONFIG_TEMPLATE_HOOKS,
  defaultPromotion: defaultPromotionHooks,
  servicePersonnel: servicePersonnelHooks(hasher),
  personnelAccessLevel: personnelAccessLevelHooks,
  consumerBan: consumerBanHooks,
});

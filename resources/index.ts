// The registry: every resource declaration, in menu order. Adding a resource type is adding its
// declaration here (plus its table in server/db/schema and its labels in i18n/).
import type { ResourceDeclaration } from './types';
import { account } from './account';
import { user } from './user';
import { role } from './role';
import { permission } from './permission';
import { fleet } from './fleet';
import { machine } from './machine';
import { event } from './event';
import { eventNotification } from './eventNotification';
import { reportNotification } from './reportNotification';
import { auditLog } from './auditLog';
import { mailOutbox } from './mailOutbox';
import { deploymentPackage } from './deploymentPackage';
import { deployment } from './deployment';
import { HOOKUP_RESOURCES } from './hookups';
import { CONFIGURATION_DECLARATIONS } from './configurationKinds';
import { CONFIG_TEMPLATE_RESOURCES } from './configTemplates';
import { PROMOTION_RESOURCES } from './promotions';
import { personnelAccessLevel, servicePersonnel } from './servicePersonnel';
import { consumerBan } from './consumerBan';

export const RESOURCES: readonly ResourceDeclaration[] = [
  account,
  user,
  role,
  permission,
  fleet,
  machine,
  event,
  eventNotification,
  reportNotification,
  auditLog,
  mailOutbox,
  deploymentPackage,
  deployment,
  ...CONFIGURATION_DECLARATIONS,
  ...CONFIG_TEMPLATE_RESOURCES,
  servicePersonnel,
  personnelAccessLevel,
  consumerBan,
  ...PROMOTION_RESOURCES,
  ...HOOKUP_RESOURCES,
];

export const findResource = (name: string, registry: readonly ResourceDeclaration[] = RESOURCES) => registry.find((declaration) => declaration.name === name);

export * from './types';

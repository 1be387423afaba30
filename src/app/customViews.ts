// Hand-written views, picked by a declaration's `customViews` key (e.g. customViews: { list: 'userList' }).
// They render inside the same DeclarationProvider as the generic views, so they can reuse them.
import { lazy, type ComponentType } from 'react';
import { UserList } from '../resources/UserList';
import { NOTIFICATION_VIEWS } from '../resources/NotificationLists';
import { FleetManagementRedirect, MachinePageRedirect } from '../installation/declarationViews';
import { HookupAppList, HookupMessageList } from '../hookups/views';

export const CUSTOM_VIEWS: Readonly<Record<string, ComponentType>> = {
  userList: UserList,
  // report and event notifications with their "send now" button (docs/reports.md "Trying a notification")
  ...NOTIFICATION_VIEWS,
  fleetManagement: FleetManagementRedirect,
  machinePage: MachinePageRedirect,
  // lazy, like the generic views (issue 8): loaded when an entry is first opened
  auditLogShow: lazy(() => import('../resources/AuditLogShow').then((module) => ({ default: module.AuditLogShow }))),
  // the APIs area (docs/api-hookups.md)
  hookupAppList: HookupAppList,
  hookupMessageList: HookupMessageList,
  // Service › Setup's two tabs (docs/deployments.md): packages, and deployments with their pages below
  setupPackages: lazy(() => import('../deployments/SetupPackagesList')),
  deployments: lazy(() => import('../deployments/DeploymentsScreen')),
  // a machine configuration kind's items with its versions (docs/machine-configuration.md)
  configurationList: lazy(() => import('../configurations/ConfigurationList')),
  // Service › generateConfigFile: templates and contents tabs, the Generate dialog (docs/machine-configuration.md#generate-config-file)
  configTemplateList: lazy(() => import('../configTemplates/TemplateTabs').then((module) => ({ default: module.ConfigTemplateList }))),
  configTemplateContentList: lazy(() => import('../configTemplates/TemplateTabs').then((module) => ({ default: module.ConfigTemplateContentList }))),
  // Service personnel with its settings tab, and Ban management with its package button (docs/service-personnel.md)
  servicePersonnelList: lazy(() => import('../personnel/PersonnelLists').then((module) => ({ default: module.ServicePersonnelList }))),
  personnelAccessLevelList: lazy(() => import('../personnel/PersonnelLists').then((module) => ({ default: module.PersonnelAccessLevelList }))),
  consumerBanList: lazy(() => import('../personnel/PersonnelLists').then((module) => ({ default: module.ConsumerBanList }))),
  // the Promotion area (docs/promotions.md): the machine-screen preview, the option tabs
  promotionResourceShow: lazy(() => import('../promotions/PromotionResourceShow')),
  promotionOptionList: lazy(() => import('../promotions/OptionTabs').then((module) => ({ default: module.PromotionOptionList }))),
  promotionItemList: lazy(() => import('../promotions/OptionTabs').then((module) => ({ default: module.PromotionItemList }))),
};

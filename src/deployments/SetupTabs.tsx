// Service › Setup's two tabs, Packages (the package declaration's list at /service/setup) and
// Deployments (/service/setup/deployments), as links: each tab is its own address, so "back" and a
// shared link land on the tab. A tab shows only with its page permission.
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Tab, Tabs } from '@mui/material';
import { useHasPermission } from '../permissions/Permission';
import { DEPLOYMENTS_ROUTE, SETUP_ROUTE } from './paths';
import { DEPLOYMENT_PERMISSIONS } from './types';

export type SetupTab = 'packages' | 'deployments';

const TABS: ReadonlyArray<{ key: SetupTab; to: string; permission: string }> = [
  { key: 'packages', to: SETUP_ROUTE, permission: DEPLOYMENT_PERMISSIONS.packages },
  { key: 'deployments', to: DEPLOYMENTS_ROUTE, permission: DEPLOYMENT_PERMISSIONS.page },
];

export const SetupTabs = ({ current }: { current: SetupTab }) => {
  const translate = useTranslate();
  const can = useHasPermission();
  const shown = TABS.filter((tab) => tab.key === current || can([tab.permission]));
  return (
    <Tabs value={current} aria-label={translate('deployments.setup.tabs')} sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
      {shown.map((tab) => (
        <Tab
          key={tab.key}
          value={tab.key}
          label={translate(`deployments.setup.${tab.key}`)}
          component={RouterLink}
          to={tab.to}
          sx={{ textTransform: 'none' }}
          data-testid={`setup-tab-${tab.key}`}
        />
      ))}
    </Tabs>
  );
};

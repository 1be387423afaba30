// Service › Setup's two tabs, Packages (the package declaration's list at /service/setup) and
// Deployments (/service/setup/deployments), as links: each tab is its own address, so "back" and a
// shared link land on the tab. A tab shows only with its page permission.
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Tab, Tabs } from '@mui/material';
import { identifierRequest } from '../permissions/canAccess';
import { DEPLOYMENTS_ROUTE, SETUP_ROUTE } from './paths';
import { DEPLOYMENT_PERMISSIONS } from './types';

export type SetupTab = 'packages' | 'deployments';

const TABS: ReadonlyArray<{ key: SetupTab; to: string }> = [
  { key: 'packages', to: SETUP_ROUTE },
  { key: 'deployments', to: DEPLOYMENTS_ROUTE },
];

export const SetupTabs = ({ current }: { current: SetupTab }) => {
  const translate = useTranslate();
  const granted: Record<SetupTab, boolean | undefined> = {
    packages: useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.packages)).canAccess,
    deployments: useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.page)).canAccess,
  };
  const shown = TABS.filter((tab) => tab.key === current || granted[tab.key] === true);
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

// Service › personnalSetting's two tabs (docs/service-personnel.md): Personnel (the servicePersonnel
// declaration's generic list) and Personnel settings (what each access level may do on a machine), each its
// own address; and Ban management's generic list with its "ban list package" button. Declarations name these
// in `customViews` (src/app/customViews.ts).
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Tab, Tabs } from '@mui/material';
import { personnelAccessLevel, servicePersonnel } from '../../resources/servicePersonnel';
import { GenericList } from '../generic/GenericList';
import { identifierRequest } from '../permissions/canAccess';
import { BanPackageButton } from './BanPackageButton';

type PersonnelTab = 'personnel' | 'levels';

const PersonnelTabs = ({ current }: { current: PersonnelTab }) => {
  const translate = useTranslate();
  const granted: Record<PersonnelTab, boolean | undefined> = {
    personnel: useCanAccess(identifierRequest(servicePersonnel.permissions.page)).canAccess,
    levels: useCanAccess(identifierRequest(personnelAccessLevel.permissions.page)).canAccess,
  };
  const tabs: ReadonlyArray<{ key: PersonnelTab; to: string }> = [
    { key: 'personnel', to: servicePersonnel.route },
    { key: 'levels', to: personnelAccessLevel.route },
  ];
  return (
    <Tabs value={current} aria-label={translate('personnel.tabs.label')} sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
      {tabs
        .filter((tab) => tab.key === current || granted[tab.key] === true)
        .map((tab) => (
          <Tab
            key={tab.key}
            value={tab.key}
            label={translate(`personnel.tabs.${tab.key}`)}
            component={RouterLink}
            to={tab.to}
            sx={{ textTransform: 'none' }}
            data-testid={`personnel-tab-${tab.key}`}
          />
        ))}
    </Tabs>
  );
};

export const ServicePersonnelList = () => (
  <>
    <PersonnelTabs current="personnel" />
    <GenericList title="menu.personnalSetting" />
  </>
);

export const PersonnelAccessLevelList = () => (
  <>
    <PersonnelTabs current="levels" />
    <GenericList title="menu.personnalSetting" />
  </>
);

export const ConsumerBanList = () => (
  <>
    <BanPackageButton />
    <GenericList title="menu.banManagement" />
  </>
);

// Promotion › createPromotionOption's two tabs, Options (/promotion/createPromotionOption) and Items
// (…/items: each option's resources in order with their durations), as links like Service › Setup's tabs.
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Tab, Tabs } from '@mui/material';
import { promotionItem, promotionOption } from '../../resources/promotions';
import { GenericList } from '../generic/GenericList';
import { identifierRequest } from '../permissions/canAccess';

type OptionTab = 'options' | 'items';

const TABS: ReadonlyArray<{ key: OptionTab; to: string }> = [
  { key: 'options', to: promotionOption.route },
  { key: 'items', to: promotionItem.route },
];

const OptionTabs = ({ current }: { current: OptionTab }) => {
  const translate = useTranslate();
  const granted: Record<OptionTab, boolean | undefined> = {
    options: useCanAccess(identifierRequest(promotionOption.permissions.page)).canAccess,
    items: useCanAccess(identifierRequest(promotionItem.permissions.page)).canAccess,
  };
  return (
    <Tabs value={current} aria-label={translate('promotions.optionTabs.label')} sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
      {TABS.filter((tab) => tab.key === current || granted[tab.key] === true).map((tab) => (
        <Tab
          key={tab.key}
          value={tab.key}
          label={translate(`promotions.optionTabs.${tab.key}`)}
          component={RouterLink}
          to={tab.to}
          sx={{ textTransform: 'none' }}
          data-testid={`option-tab-${tab.key}`}
        />
      ))}
    </Tabs>
  );
};

export const PromotionOptionList = () => (
  <>
    <OptionTabs current="options" />
    <GenericList title="menu.createPromotionOption" />
  </>
);

export const PromotionItemList = () => (
  <>
    <OptionTabs current="items" />
    <GenericList title="menu.createPromotionOption" />
  </>
);

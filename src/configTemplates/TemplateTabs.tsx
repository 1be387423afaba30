// Service › generateConfigFile's two tabs (docs/machine-configuration.md#generate-config-file): Templates
// (/service/generateConfigFile, with the "Generate" button) and Contents (…/contents: each template's contents in
// order), as links like Promotion › createPromotionOption's tabs.
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Tab, Tabs } from '@mui/material';
import BuildIcon from '@mui/icons-material/Build';
import { Button } from 'react-admin';
import { configTemplate, configTemplateContent } from '../../resources/configTemplates';
import { GenericList } from '../generic/GenericList';
import { identifierRequest } from '../permissions/canAccess';
import { GenerateDialog } from './GenerateDialog';

type TemplateTab = 'templates' | 'contents';

const TABS: ReadonlyArray<{ key: TemplateTab; to: string }> = [
  { key: 'templates', to: configTemplate.route },
  { key: 'contents', to: configTemplateContent.route },
];

const TemplateTabs = ({ current }: { current: TemplateTab }) => {
  const translate = useTranslate();
  const granted: Record<TemplateTab, boolean | undefined> = {
    templates: useCanAccess(identifierRequest(configTemplate.permissions.page)).canAccess,
    contents: useCanAccess(identifierRequest(configTemplateContent.permissions.page)).canAccess,
  };
  return (
    <Tabs value={current} aria-label={translate('configTemplates.tabs.label')} sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
      {TABS.filter((tab) => tab.key === current || granted[tab.key] === true).map((tab) => (
        <Tab
          key={tab.key}
          value={tab.key}
          label={translate(`configTemplates.tabs.${tab.key}`)}
          component={RouterLink}
          to={tab.to}
          sx={{ textTransform: 'none' }}
          data-testid={`template-tab-${tab.key}`}
        />
      ))}
    </Tabs>
  );
};

export const ConfigTemplateList = () => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TemplateTabs current="templates" />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: -1 }}>
        <Button label="configTemplates.generate.open" onClick={() => setOpen(true)} variant="outlined" data-testid="config-generate">
          <BuildIcon />
        </Button>
      </Box>
      <GenericList title="menu.generateConfigFile" />
      {open ? <GenerateDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
};

export const ConfigTemplateContentList = () => (
  <>
    <TemplateTabs current="contents" />
    <GenericList title="menu.generateConfigFile" />
  </>
);

// The language switch of the console's header: the language button with a tooltip naming it.
import { useTranslate } from 'ra-core';
import { Tooltip } from '@mui/material';
import { LanguageButton } from './LanguageButton';

export const LanguageSwitch = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const translate = useTranslate();
  return (
    // describeChild: the tooltip describes the button; its name stays its visible text (WCAG 2.5.3).
    <Tooltip title={translate('app.language.label')} describeChild>
      <LanguageButton color={color} />
    </Tooltip>
  );
};

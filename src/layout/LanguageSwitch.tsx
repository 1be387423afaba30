// SPEC section 2/4 language switch: shows the other language (Chinese or English); choosing it
// stores `lang` and reloads so every text, the http `lang` header included, follows; `<html lang>`
// follows too (src/providers/i18nProvider.ts).
import { useTranslate } from 'ra-core';
import { Button, Tooltip } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { applyDocumentLanguage } from '../providers/i18nProvider';
import { useConsoleServices } from './ConsoleServices';

export const LanguageSwitch = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const translate = useTranslate();
  const { session, locale, reload } = useConsoleServices();
  const other = locale === 'zh' ? 'en' : 'zh';
  return (
    // describeChild: the tooltip describes the button; its name stays its visible text (WCAG 2.5.3).
    <Tooltip title={translate('app.language.label')} describeChild>
      <Button
        color={color}
        startIcon={<TranslateIcon />}
        lang={other}
        data-testid="language-switch"
        onClick={() => {
          session.setLang(other);
          applyDocumentLanguage(other);
          reload();
        }}
        sx={{ textTransform: 'none' }}
      >
        {translate(`app.language.${other}`)}
      </Button>
    </Tooltip>
  );
};

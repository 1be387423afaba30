// SPEC section 2/4 language switch: shows the other language (Chinese or English); choosing it
// stores `lang` and reloads so every text, the http `lang` header included, follows.
import { useTranslate } from 'ra-core';
import { Button, Tooltip } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useConsoleServices } from './ConsoleServices';

export const LanguageSwitch = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const translate = useTranslate();
  const { session, locale, reload } = useConsoleServices();
  const other = locale === 'zh' ? 'en' : 'zh';
  return (
    <Tooltip title={translate('app.language.label')}>
      <Button
        color={color}
        startIcon={<TranslateIcon />}
        lang={other}
        data-testid="language-switch"
        onClick={() => {
          session.setLang(other);
          reload();
        }}
        sx={{ textTransform: 'none' }}
      >
        {translate(`app.language.${other}`)}
      </Button>
    </Tooltip>
  );
};

// The language switch (docs/product-rules.md#screens-and-routes): shows the other language (Chinese or English); choosing it
// stores `lang` and reloads so every text, the http `lang` header included, follows; `<html lang>`
// follows too. Without a tooltip, so the login page does not load MUI's popper (LanguageSwitch adds
// the tooltip in the console's header).
import type { ComponentProps } from 'react';
import { useTranslate } from 'ra-core';
import { Button } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { applyDocumentLanguage } from '../providers/documentLanguage';
import { useConsoleServices } from './ConsoleServices';

export type LanguageButtonProps = Omit<ComponentProps<typeof Button>, 'color' | 'onClick'> & { color?: 'inherit' | 'primary' };

export const LanguageButton = ({ color = 'inherit', ...props }: LanguageButtonProps) => {
  const translate = useTranslate();
  const { session, locale, reload } = useConsoleServices();
  const other = locale === 'zh' ? 'en' : 'zh';
  return (
    <Button
      {...props}
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
  );
};

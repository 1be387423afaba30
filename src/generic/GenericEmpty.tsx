// The empty state of a list without filters: what is missing and, if permitted, how to create it.
import { Box, Typography } from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';
import { CanAccess, CreateButton, useTranslate } from 'react-admin';
import { useDeclaration } from './DeclarationContext';
import { resourceLabel } from '../providers/registry';

export const GenericEmpty = () => {
  const translate = useTranslate();
  const { declaration } = useDeclaration();
  const name = translate(resourceLabel(declaration), { smart_count: 2 });
  return (
    <Box sx={{ textAlign: 'center', py: 6, color: 'text.secondary', flex: 1 }}>
      <InboxIcon sx={{ fontSize: 64, opacity: 0.5 }} />
      <Typography variant="h6">{translate('generic.empty.title', { name })}</Typography>
      <CanAccess action="create">
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('generic.empty.invite')}
        </Typography>
        <CreateButton variant="contained" />
      </CanAccess>
    </Box>
  );
};

// A promotion resource's page: the generic show view, then the preview of the machine's screen
// (docs/promotions.md#the-machine-screen). Loaded when first opened (src/app/customViews.ts).
import { useTranslate } from 'ra-core';
import { EditButton, ListButton, Show, SimpleShowLayout, TopToolbar, useRecordContext } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { fieldsFor } from '../../resources/types';
import { useDeclaration } from '../generic/DeclarationContext';
import { FieldDisplay } from '../generic/FieldDisplay';
import { fieldLabel } from '../providers/registry';
import { MachineScreenPreview } from './MachineScreenPreview';

const Preview = () => {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
        {translate('promotions.preview.title')}
      </Typography>
      <MachineScreenPreview name={String(record.name ?? '')} promotion1={record.promotion1} promotion2={record.promotion2} logo={record.logo} />
    </Box>
  );
};

const PromotionResourceShow = () => {
  const { declaration } = useDeclaration();
  return (
    <Show
      actions={
        <TopToolbar>
          <ListButton />
          <EditButton />
        </TopToolbar>
      }
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <SimpleShowLayout sx={{ flex: '1 1 360px' }}>
          {fieldsFor(declaration, 'show').map((name) => (
            <FieldDisplay key={name} source={name} label={fieldLabel(declaration, name)} />
          ))}
        </SimpleShowLayout>
        <Box sx={{ p: 2 }}>
          <Preview />
        </Box>
      </Box>
    </Show>
  );
};

export default PromotionResourceShow;

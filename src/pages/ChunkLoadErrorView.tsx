// What the user sees when a chunk failed to load (docs/product-rules.md#error-catalogue): the error, translated, and a reload.
import { useTranslate } from 'ra-core';
import { Alert, AlertTitle, Box, Button } from '@mui/material';
import type { ChunkLoadError } from './chunkLoad';

export const ChunkLoadErrorView = ({ error }: { error: ChunkLoadError }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2, maxWidth: 720 }} data-testid="chunk-load-error">
      <Alert
        severity="error"
        role="alert"
        action={
          <Button color="inherit" variant="outlined" size="small" sx={{ whiteSpace: 'nowrap' }} onClick={() => window.location.reload()}>
            {translate('app.chunkLoad.reload')}
          </Button>
        }
      >
        <AlertTitle>{translate('app.chunkLoad.title')}</AlertTitle>
        {translate(error.kind === 'css' ? 'app.chunkLoad.css' : 'app.chunkLoad.script', { name: error.chunk })}
      </Alert>
    </Box>
  );
};

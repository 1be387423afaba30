// A configuration kind's screen (docs/machine-configuration.md "Console"): the generic list of its items with a
// "Versions" button above it, opening the saved versions (compare two, make one a package). The same view for
// every kind: what it shows comes from the declaration in context.
import { useState } from 'react';
import { Box } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import { Button } from 'react-admin';
import { useDeclaration } from '../generic/DeclarationContext';
import { GenericList } from '../generic/GenericList';
import { VersionsDialog } from './VersionsDialog';

const ConfigurationList = () => {
  const { declaration } = useDeclaration();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: -1, mt: 1 }}>
        <Button label="machineConfiguration.versions.open" onClick={() => setOpen(true)} variant="outlined" data-testid="configuration-versions">
          <HistoryIcon />
        </Button>
      </Box>
      <GenericList />
      {open ? <VersionsDialog declaration={declaration} onClose={() => setOpen(false)} /> : null}
    </>
  );
};

export default ConfigurationList;

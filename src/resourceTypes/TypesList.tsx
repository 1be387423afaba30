// The configured types: name, label, menu entry, field count, status and version, with create, edit,
// delete (archives a type holding records, after saying so), export (selected or all) and import.
import { useRef, useState, type ChangeEvent } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import UploadIcon from '@mui/icons-material/Upload';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { saveBlob } from '../providers/download';
import { configuredRoute, type ConfiguredType } from './configuredType';
import { parseExportFile } from './typesApi';
import { useAfterTypesChange, useTypes, useTypesApi } from './useTypes';

const labelIn = (type: ConfiguredType, locale: string) => (locale === 'zh' ? type.labels.zh : type.labels.en) || type.labels.en;

interface DeletePrompt {
  type: ConfiguredType;
  count: number | null;
}

const DeleteDialog = ({ prompt, onClose }: { prompt: DeletePrompt | null; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useTypesApi();
  const afterChange = useAfterTypesChange();
  const [locale] = useLocaleState();
  const [busy, setBusy] = useState(false);
  if (!prompt) return null;
  const archives = (prompt.count ?? 0) > 0;
  const label = labelIn(prompt.type, locale);
  const confirm = async () => {
    setBusy(true);
    try {
      await api.remove(prompt.type.name);
      notify(archives ? 'resourceTypes.archived' : 'resourceTypes.deleted', { type: 'info' });
      await afterChange();
      onClose();
    } catch {
      // the http client showed the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="delete-type-title">
      <DialogTitle id="delete-type-title">{translate('resourceTypes.deleteDialog.title', { name: prompt.type.name })}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {archives ? translate('resourceTypes.deleteDialog.withRecords', { label, count: prompt.count ?? 0 }) : translate('resourceTypes.deleteDialog.withoutRecords', { label })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('resourceTypes.buttons.cancel')}</Button>
        <Button color="error" variant="contained" onClick={confirm} disabled={busy}>
          {translate(archives ? 'resourceTypes.deleteDialog.confirmArchive' : 'resourceTypes.deleteDialog.confirmDelete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

export const TypesList = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const api = useTypesApi();
  const afterChange = useAfterTypesChange();
  const { data: types = [], isPending, error } = useTypes();
  const [selected, setSelected] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<DeletePrompt | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const toggle = (name: string) => setSelected((names) => (names.includes(name) ? names.filter((n) => n !== name) : [...names, name]));
  const allSelected = types.length > 0 && selected.length === types.length;

  const askDelete = async (type: ConfiguredType) => {
    // whether the delete archives or removes depends on records (an archived type has none reachable)
    const count = type.status === 'archived' ? 0 : await api.recordCount(type.name).catch(() => null);
    setDeleting({ type, count });
  };

  const exportTypes = async () => {
    try {
      const { blob, filename } = await api.export(selected);
      saveBlob(blob, filename);
    } catch {
      // the download client showed 'Download failed'
    }
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const parsed = parseExportFile(await file.text());
    if (!parsed) {
      notify('resourceTypes.importInvalid', { type: 'error' });
      return;
    }
    try {
      const answer = await api.import(parsed);
      notify('resourceTypes.imported', { type: 'info', messageArgs: { created: answer.created.length, updated: answer.updated.length } });
      await afterChange();
    } catch {
      // the http client showed the server's message
    }
  };

  return (
    <Box sx={{ minWidth: 0 }}>
      <ScreenHeading node={node} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('resourceTypes.intro')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="create">
          {translate('resourceTypes.buttons.create')}
        </Button>
        <Button startIcon={<DownloadIcon />} onClick={exportTypes} disabled={types.length === 0}>
          {selected.length ? translate('resourceTypes.buttons.exportSelected', { count: selected.length }) : translate('resourceTypes.buttons.export')}
        </Button>
        <Button startIcon={<UploadIcon />} onClick={() => fileInput.current?.click()}>
          {translate('resourceTypes.buttons.import')}
        </Button>
        <input ref={fileInput} type="file" accept="application/json,.json" hidden data-testid="import-file" onChange={importFile} />
      </Box>
      {error ? <Alert severity="error">{error.message}</Alert> : null}
      <TableContainer component={Paper} sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={translate('resourceTypes.title')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allSelected}
                  indeterminate={selected.length > 0 && !allSelected}
                  onChange={() => setSelected(allSelected ? [] : types.map((type) => type.name))}
                  slotProps={{ input: { 'aria-label': translate('resourceTypes.selectAll') } }}
                />
              </TableCell>
              {(['name', 'label', 'menuParent', 'fieldCount', 'status', 'version', 'actions'] as const).map((column) => (
                <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
                  {translate(`resourceTypes.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {isPending ? (
              <TableRow>
                <TableCell colSpan={8} align="center">
                  <CircularProgress size={24} />
                </TableCell>
              </TableRow>
            ) : types.length === 0 ? (
              <TableRow>
                <TableCell colSpan={8}>{translate('resourceTypes.empty')}</TableCell>
              </TableRow>
            ) : (
              types.map((type) => {
                const archived = type.status === 'archived';
                return (
                  <TableRow key={type.name} hover data-type-name={type.name}>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={selected.includes(type.name)}
                        onChange={() => toggle(type.name)}
                        slotProps={{ input: { 'aria-label': translate('resourceTypes.selectRow', { name: type.name }) } }}
                      />
                    </TableCell>
                    <TableCell>
                      <Link component={RouterLink} to={type.name}>
                        {type.name}
                      </Link>
                    </TableCell>
                    <TableCell>
                      {archived ? (
                        labelIn(type, locale)
                      ) : (
                        <Link component={RouterLink} to={configuredRoute(type)} title={translate('resourceTypes.buttons.open')}>
                          {labelIn(type, locale)}
                        </Link>
                      )}
                    </TableCell>
                    <TableCell>{translate(`menu.${type.menuParent}`, { _: type.menuParent })}</TableCell>
                    <TableCell>{Object.keys(type.fields).length}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={archived ? 'default' : 'success'}
                        variant={archived ? 'outlined' : 'filled'}
                        label={translate(`resourceTypes.status.${archived ? 'archived' : 'active'}`)}
                      />
                    </TableCell>
                    <TableCell>{type.version ?? ''}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={translate('resourceTypes.buttons.edit')}>
                        <IconButton component={RouterLink} to={type.name} size="small" aria-label={`${translate('resourceTypes.buttons.edit')} ${type.name}`}>
                          <EditIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      {archived ? null : (
                        <Tooltip title={translate('resourceTypes.buttons.delete')}>
                          <IconButton size="small" color="error" onClick={() => void askDelete(type)} aria-label={`${translate('resourceTypes.buttons.delete')} ${type.name}`}>
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <DeleteDialog prompt={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
};

// Saved filters (docs/product-rules.md#catalogues): apply a personal or public one, save the current filter, delete
// own ones. Built-in filters are marked and offer no delete (the server answers 5001 anyway).
// Keyboard: the menu's arrow keys move between filters, Enter applies one, Delete deletes one of
// the user's own (the bin icon is the pointer's way to the same thing).
import { useCallback, useEffect, useId, useState, type KeyboardEvent } from 'react';
import {
  Box,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import BookmarkIcon from '@mui/icons-material/BookmarkBorder';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Button, Confirm, useDataProvider, useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import { SAVED_FILTER_NAME_MAX } from '../../resources/savedFilters';
import type { FilterVisibility, RvmDataProvider, SavedFilter } from '../providers/dataProvider';
import { visuallyHidden } from '../layout/visuallyHidden';
import { isEmptyValue } from '../providers/wire';

/** Filters worth saving: the non-empty values of the current filter. */
export const savableFilter = (filterValues: Record<string, unknown>) => Object.fromEntries(Object.entries(filterValues).filter(([, value]) => !isEmptyValue(value)));

/** Every key of an applied filter is displayed, so filters hidden behind "Add filter" show up too. */
export const displayedFiltersOf = (filter: Record<string, unknown>) => Object.fromEntries(Object.keys(filter).map((name) => [name, true]));

/** A built-in filter's name is seed data (English): shown translated when the catalogue knows it. */
export const filterName = (translate: (key: string, options?: Record<string, unknown>) => string, filter: SavedFilter) =>
  filter.builtIn ? translate(`generic.savedFilters.builtInNames.${filter.name}`, { _: filter.name }) : filter.name;

export const SavedFiltersButton = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<RvmDataProvider>();
  const { filterValues, setFilters } = useListContext();
  const [saved, setSaved] = useState<SavedFilter[]>([]);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [saving, setSaving] = useState(false);
  const [doomed, setDoomed] = useState<SavedFilter | null>(null);
  const deleteHintId = useId();

  const load = useCallback(() => {
    dataProvider.savedFilters(resource).then(setSaved, () => setSaved([]));
  }, [dataProvider, resource]);
  useEffect(load, [load]);

  const current = savableFilter(filterValues ?? {});
  const apply = (filter: SavedFilter) => {
    setAnchor(null);
    setFilters(filter.filter, displayedFiltersOf(filter.filter));
  };
  const askToDelete = (filter: SavedFilter) => {
    setAnchor(null);
    setDoomed(filter);
  };
  const deleteOnKey = (filter: SavedFilter) => (event: KeyboardEvent) => {
    if (event.key !== 'Delete') return;
    event.preventDefault();
    askToDelete(filter);
  };
  const remove = async () => {
    if (!doomed) return;
    try {
      await dataProvider.deleteFilter(doomed.id);
      notify('generic.savedFilters.deleted', { type: 'info' });
      load();
    } finally {
      setDoomed(null);
    }
  };

  return (
    <>
      <Button label="generic.savedFilters.button" onClick={(event) => setAnchor(event.currentTarget)}>
        <BookmarkIcon />
      </Button>
      {/* the description of deletable filters (outside the menu: referenced, never shown) */}
      <Box component="span" id={deleteHintId} sx={visuallyHidden}>
        {translate('generic.savedFilters.deleteHint')}
      </Box>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {saved.length === 0 ? <MenuItem disabled>{translate('generic.savedFilters.empty')}</MenuItem> : null}
        {saved.map((filter) => {
          const deletable = filter.mine && !filter.builtIn;
          return (
            <MenuItem
              key={filter.id}
              onClick={() => apply(filter)}
              onKeyDown={deletable ? deleteOnKey(filter) : undefined}
              aria-keyshortcuts={deletable ? 'Delete' : undefined}
              aria-describedby={deletable ? deleteHintId : undefined}
              sx={{ gap: 1 }}
            >
              <ListItemText primary={filterName(translate, filter)} />
              {filter.builtIn ? <Chip size="small" label={translate('generic.savedFilters.builtIn')} /> : null}
              {filter.visibility === 'public' && !filter.builtIn ? <Chip size="small" variant="outlined" label={translate('generic.savedFilters.public')} /> : null}
              {deletable ? (
                // for the pointer; the keyboard deletes with the Delete key (announced by the hint)
                <IconButton
                  size="small"
                  tabIndex={-1}
                  aria-hidden
                  title={translate('generic.savedFilters.deleteTitle')}
                  onClick={(event) => {
                    event.stopPropagation();
                    askToDelete(filter);
                  }}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              ) : null}
            </MenuItem>
          );
        })}
        <Divider />
        <MenuItem
          disabled={Object.keys(current).length === 0}
          onClick={() => {
            setAnchor(null);
            setSaving(true);
          }}
        >
          {translate('generic.savedFilters.saveCurrent')}
        </MenuItem>
      </Menu>
      <SaveFilterDialog
        open={saving}
        onClose={() => setSaving(false)}
        onSave={async (name, visibility) => {
          await dataProvider.saveFilter(resource, { name, visibility, filter: current });
          notify('generic.savedFilters.saved', { type: 'info' });
          setSaving(false);
          load();
        }}
      />
      <Confirm
        isOpen={Boolean(doomed)}
        title="generic.savedFilters.deleteTitle"
        content="generic.savedFilters.deleteConfirm"
        translateOptions={{ name: doomed?.name ?? '' }}
        onConfirm={remove}
        onClose={() => setDoomed(null)}
      />
    </>
  );
};

interface SaveFilterDialogProps {
  open: boolean;
  onClose: () => void;
  onSave: (name: string, visibility: FilterVisibility) => Promise<void>;
}

const SaveFilterDialog = ({ open, onClose, onSave }: SaveFilterDialogProps) => {
  const translate = useTranslate();
  const [name, setName] = useState('');
  const [visibility, setVisibility] = useState<FilterVisibility>('personal');
  const [busy, setBusy] = useState(false);
  const trimmed = name.trim();
  const tooLong = trimmed.length > SAVED_FILTER_NAME_MAX;
  const submit = async () => {
    setBusy(true);
    try {
      await onSave(trimmed, visibility);
      setName('');
    } catch {
      // the http client already showed the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('generic.savedFilters.saveCurrent')}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={translate('generic.savedFilters.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          // the server's limit (1002 beyond it), shown as the user types
          error={tooLong}
          helperText={
            tooLong
              ? translate('generic.savedFilters.nameTooLong', { max: SAVED_FILTER_NAME_MAX })
              : translate('generic.savedFilters.nameHint', { count: trimmed.length, max: SAVED_FILTER_NAME_MAX })
          }
        />
        <RadioGroup row value={visibility} onChange={(event) => setVisibility(event.target.value as FilterVisibility)}>
          <FormControlLabel value="personal" control={<Radio />} label={translate('generic.savedFilters.personal')} />
          <FormControlLabel value="public" control={<Radio />} label={translate('generic.savedFilters.public')} />
        </RadioGroup>
      </DialogContent>
      <DialogActions>
        <Button label="ra.action.cancel" onClick={onClose} />
        <Button label="ra.action.save" variant="contained" disabled={!trimmed || tooLong || busy} onClick={submit} />
      </DialogActions>
    </Dialog>
  );
};

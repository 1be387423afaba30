// Export of the filtered, sorted list as CSV or XLSX through the data provider's `export`: the visible
// columns in the shown order (column chooser), with a progress dialog (percentage when the server
// sends a size, bytes received otherwise; cancellable).
import { useRef, useState } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, ListSubheader, Menu, MenuItem, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Button, useDataProvider, useListContext, useResourceContext, useTranslate } from 'react-admin';
import type { ExportFormat, RvmDataProvider } from '../providers/dataProvider';
import { saveBlob } from '../providers/download';
import { formatBytes, percentOf } from './format';
import { useVisibleColumns } from './visibleColumns';

const FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];

interface ExportProgress {
  loaded: number;
  total?: number;
}

export interface ExportButtonProps {
  /** The list's columns in declaration order, `null` for a column that is no field (row actions). */
  columnSources: readonly (string | null)[];
}

export const ExportButton = ({ columnSources }: ExportButtonProps) => {
  const translate = useTranslate();
  const columns = useVisibleColumns(columnSources);
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<RvmDataProvider>();
  const { filterValues, sort, total } = useListContext();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = async (format: ExportFormat) => {
    setAnchor(null);
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ loaded: 0 });
    try {
      const { blob, filename } = await dataProvider.export(resource, {
        format,
        filter: filterValues,
        sort,
        columns,
        onProgress: ({ loaded, total: size }) => setProgress({ loaded, total: size }),
        signal: controller.signal,
      });
      saveBlob(blob, filename);
    } catch {
      // the download client already showed 'Download failed'; a cancel needs no message
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  const percent = progress ? percentOf(progress.loaded, progress.total) : null;
  return (
    <>
      <Button label="generic.export.button" onClick={(event) => setAnchor(event.currentTarget)} disabled={!total || !columns.length || Boolean(progress)}>
        <DownloadIcon />
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <ListSubheader sx={{ lineHeight: 1.5, py: 1, maxWidth: 280, whiteSpace: 'normal' }}>
          {translate('generic.export.visibleColumns', { count: columns.length })}
        </ListSubheader>
        {FORMATS.map((format) => (
          <MenuItem key={format} onClick={() => run(format)}>
            {translate(`generic.export.${format}`)}
          </MenuItem>
        ))}
      </Menu>
      {/* Escape (or a click outside) cancels, as its Cancel button does */}
      <Dialog open={Boolean(progress)} onClose={() => abort.current?.abort()} maxWidth="xs" fullWidth aria-labelledby="export-progress-title">
        <DialogTitle id="export-progress-title">{translate('generic.export.title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('generic.export.visibleColumns', { count: columns.length })}
          </Typography>
          <LinearProgress variant={percent === null ? 'indeterminate' : 'determinate'} value={percent ?? 0} />
          <Typography variant="body2" sx={{ mt: 1 }}>
            {percent !== null
              ? translate('generic.export.percent', { percent })
              : progress?.loaded
                ? translate('generic.export.bytes', { size: formatBytes(progress.loaded) })
                : translate('generic.export.preparing')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => abort.current?.abort()} />
        </DialogActions>
      </Dialog>
    </>
  );
};

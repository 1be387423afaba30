// Export of the filtered, sorted list as CSV or XLSX through the data provider's `export`: the visible
// columns in the shown order (column chooser), with a cancellable progress dialog.
import { useState } from 'react';
import { ListSubheader, Menu, MenuItem } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Button, useDataProvider, useListContext, useResourceContext, useTranslate } from 'react-admin';
import type { ExportFormat, RvmDataProvider } from '../providers/dataProvider';
import { DownloadProgressDialog } from './DownloadProgressDialog';
import { useSavedDownload } from './useSavedDownload';
import { useVisibleColumns } from './visibleColumns';

const FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];

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
  const { progress, run: download, cancel } = useSavedDownload();

  const run = (format: ExportFormat) => {
    setAnchor(null);
    void download(undefined, (options) => dataProvider.export(resource, { format, filter: filterValues, sort, columns, ...options }));
  };

  return (
    <>
      <Button label="generic.export.button" onClick={(event) => setAnchor(event.currentTarget)} disabled={!total || !columns.length || Boolean(progress)}>
        <DownloadIcon />
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <ListSubheader sx={{ lineHeight: 1.5, py: 1, maxWidth: 280, whiteSpace: 'normal' }}>{translate('generic.export.visibleColumns', { count: columns.length })}</ListSubheader>
        {FORMATS.map((format) => (
          <MenuItem key={format} onClick={() => run(format)}>
            {translate(`generic.export.${format}`)}
          </MenuItem>
        ))}
      </Menu>
      <DownloadProgressDialog
        progress={progress}
        title={translate('generic.export.title')}
        detail={translate('generic.export.visibleColumns', { count: columns.length })}
        onCancel={cancel}
      />
    </>
  );
};

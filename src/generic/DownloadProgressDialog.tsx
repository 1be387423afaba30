// The progress of a file being prepared and downloaded (percentage when the server sends a size, bytes
// received otherwise, "preparing" before the first byte), cancellable by its button or Escape.
import { Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Typography } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import { formatBytes, percentOf } from './format';

export interface DownloadProgress {
  loaded: number;
  total?: number;
}

export interface DownloadProgressDialogProps {
  /** null: closed. */
  progress: DownloadProgress | null;
  title: string;
  detail?: string;
  onCancel: () => void;
}

export const DownloadProgressDialog = ({ progress, title, detail, onCancel }: DownloadProgressDialogProps) => {
  const translate = useTranslate();
  const percent = progress ? percentOf(progress.loaded, progress.total) : null;
  return (
    // Escape (or a click outside) cancels, as its Cancel button does
    <Dialog open={Boolean(progress)} onClose={onCancel} maxWidth="xs" fullWidth aria-labelledby="download-progress-title">
      <DialogTitle id="download-progress-title">{title}</DialogTitle>
      <DialogContent>
        {detail ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {detail}
          </Typography>
        ) : null}
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
        <Button label="ra.action.cancel" onClick={onCancel} />
      </DialogActions>
    </Dialog>
  );
};

// Image and file values in lists and show views (docs/files.md): an image as its thumbnail, a file as a
// download link with its name and size; both download the original through the console's download
// client (the token goes in a header, so a plain link could not), with a cancellable progress dialog.
import type { ComponentType, MouseEvent, ReactNode } from 'react';
import { Box, Link, Typography } from '@mui/material';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import { useRecordContext, useTranslate } from 'react-admin';
import type { FileInfo } from '../../resources/files';
import { useConsoleServices } from '../layout/ConsoleServices';
import { DownloadProgressDialog } from './DownloadProgressDialog';
import { useSavedDownload } from './useSavedDownload';
import { useFileInfo, useThumbnailUrl } from './files';
import { formatBytes } from './format';

const THUMBNAIL_BOX = 64;

/** Downloads the file on click (the row under it is not opened), showing the progress. */
const DownloadTrigger = ({ info, children }: { info: FileInfo; children: ReactNode }) => {
  const translate = useTranslate();
  const { download } = useConsoleServices();
  const { progress, run, cancel } = useSavedDownload();
  const start = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    void run(info.size, (options) => download.download('GET', `/file/${info.id}`, options));
  };
  return (
    <>
      <Link component="button" type="button" onClick={start} title={translate('generic.file.download', { name: info.name })} sx={{ textAlign: 'left' }}>
        {children}
      </Link>
      <DownloadProgressDialog progress={progress} title={translate('generic.file.downloading')} detail={info.name} onCancel={cancel} />
    </>
  );
};

const Unavailable = () => {
  const translate = useTranslate();
  return (
    <Typography component="span" variant="body2" color="text.secondary">
      {translate('generic.file.unavailable')}
    </Typography>
  );
};

/** The thumbnail of an uploaded image (an icon while it loads or when there is none). */
export const FileThumbnail = ({ info }: { info: FileInfo }) => {
  const translate = useTranslate();
  const url = useThumbnailUrl(info);
  return (
    <Box component="span" sx={{ display: 'inline-flex', width: THUMBNAIL_BOX, height: THUMBNAIL_BOX, alignItems: 'center', justifyContent: 'center', verticalAlign: 'middle' }}>
      {url ? (
        <img src={url} alt={translate('generic.file.thumbnail', { name: info.name })} style={{ maxWidth: THUMBNAIL_BOX, maxHeight: THUMBNAIL_BOX, objectFit: 'contain' }} />
      ) : (
        <ImageOutlinedIcon color="disabled" aria-label={translate('generic.file.thumbnail', { name: info.name })} />
      )}
    </Box>
  );
};

export const FileNameAndSize = ({ info }: { info: FileInfo }) => {
  const translate = useTranslate();
  return <>{translate('generic.file.nameAndSize', { name: info.name, size: formatBytes(info.size) })}</>;
};

/** A file field of the record in context, shown as the image's thumbnail or as the file's name and size; a click downloads it. */
const StoredFileField = ({ source, shown: Shown }: { source: string; shown: ComponentType<{ info: FileInfo }> }) => {
  const value: unknown = useRecordContext()?.[source];
  const info = useFileInfo(value);
  if (info === null) return value ? <Unavailable /> : null;
  if (info === undefined) return null;
  return (
    <DownloadTrigger info={info}>
      <Shown info={info} />
    </DownloadTrigger>
  );
};

/** An image field of the record in context. */
export const ImageValueField = ({ source }: { source: string }) => <StoredFileField source={source} shown={FileThumbnail} />;

/** A file's name and size, after its thumbnail when it is a picture (a media field's file, docs/files.md "Media sizes"). */
const FileWithThumbnail = ({ info }: { info: FileInfo }) =>
  info.hasThumbnail ? (
    <>
      <FileThumbnail info={info} /> <FileNameAndSize info={info} />
    </>
  ) : (
    <FileNameAndSize info={info} />
  );

/** A file field of the record in context. */
export const FileValueField = ({ source }: { source: string }) => <StoredFileField source={source} shown={FileWithThumbnail} />;

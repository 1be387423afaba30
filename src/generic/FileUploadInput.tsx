// The form input of an image or file field (docs/files.md): the current file (thumbnail or name and size),
// a button to choose another, the upload's progress with its name and size and a cancel button, and the
// refusal in the user's language. Size and type are checked here first (the browser's type is only a
// guess from the name); the server judges the bytes. The field's value is the uploaded file's id.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Box, Button as MuiButton, FormHelperText, FormLabel, LinearProgress, Stack, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, InputHelperText, useInput, useTranslate, type Validator } from 'react-admin';
import { fileLimitsOf, mimeAccepted, type FileInfo, type FileLimits } from '../../resources/files';
import type { FieldDeclaration } from '../../resources/types';
import { ApiError } from '../providers/httpTypes';
import { FileNameAndSize, FileThumbnail } from './FileFields';
import { acceptedTypes, limitsText, useFileInfo, useRememberFileInfo, useUploadClient } from './files';
import { formatBytes, percentOf } from './format';

export interface FileUploadInputProps {
  source: string;
  label: string;
  field: FieldDeclaration;
  /** The resource the file is for (its create or edit permission allows the upload). */
  resource: string;
  validate?: Validator;
  required: boolean;
}

interface Sending {
  name: string;
  size: number;
  loaded: number;
}

type Translate = ReturnType<typeof useTranslate>;

/** A refusal before sending: too large, or a type the browser already knows is not accepted. */
export const refusalBeforeSending = (translate: Translate, limits: FileLimits, file: Pick<File, 'name' | 'size' | 'type'>): string | null => {
  if (file.size > limits.maxBytes) return translate('generic.file.tooLarge', { name: file.name, max: formatBytes(limits.maxBytes) });
  if (file.type && !mimeAccepted(file.type, limits.accept)) return translate('generic.file.wrongType', { name: file.name, types: acceptedTypes(translate, limits) });
  return null;
};

/** The server's refusal in words naming the file and the limit (its own message otherwise). */
const refusalOf = (translate: Translate, limits: FileLimits, name: string, failure: unknown): string => {
  if (!(failure instanceof ApiError)) return translate('errors.network');
  const data = (failure.data ?? {}) as { maxBytes?: number; mimeType?: string };
  if (failure.code === '9600') return translate('generic.file.tooLarge', { name, max: formatBytes(data.maxBytes ?? limits.maxBytes) });
  if (failure.code === '9601') return translate('generic.file.wrongTypeFound', { found: data.mimeType ?? '?', types: acceptedTypes(translate, limits) });
  return failure.message;
};

export const FileUploadInput = ({ source, label, field, resource, validate, required }: FileUploadInputProps) => {
  const translate = useTranslate();
  const uploadClient = useUploadClient({ resumable: field.type === 'file' });
  const remember = useRememberFileInfo();
  // Saving while a file is still on its way would store the record without it: the form refuses until it
  // arrives or is cancelled (react-hook-form reads the rules at each render, so the ref's value is current).
  const sendingNow = useRef<string | null>(null);
  const stillSending: Validator = () => (sendingNow.current ? { message: 'generic.file.stillUploading', args: { name: sendingNow.current } } : undefined);
  const { field: input, fieldState } = useInput({ source, validate: validate ? [stillSending, validate] : stillSending });
  const info = useFileInfo(input.value);
  const limits = fileLimitsOf(field);
  const [sending, setSending] = useState<Sending | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const cancel = useRef<AbortController | null>(null);
  const chooserId = useId();

  const send = async (file: File) => {
    const early = refusalBeforeSending(translate, limits, file);
    setRefusal(early);
    if (early) return;
    const controller = new AbortController();
    cancel.current = controller;
    sendingNow.current = file.name;
    setSending({ name: file.name, size: file.size, loaded: 0 });
    try {
      const stored = await uploadClient.upload<FileInfo>('/file', file, {
        query: { resource, field: source, name: file.name },
        silent: true,
        signal: controller.signal,
        onProgress: ({ loaded }) => setSending({ name: file.name, size: file.size, loaded }),
      });
      remember(stored);
      input.onChange(stored.id);
    } catch (failure) {
      // a cancel needs no message
      if (!controller.signal.aborted) setRefusal(refusalOf(translate, limits, file.name, failure));
    } finally {
      cancel.current = null;
      sendingNow.current = null;
      setSending(null);
    }
  };

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again after a refusal
    if (file) void send(file);
  };

  const percent = sending ? percentOf(sending.loaded, sending.size) : null;
  const hasValue = input.value !== null && input.value !== undefined && input.value !== '';
  const chooseLabel = hasValue ? 'generic.file.replace' : field.type === 'image' ? 'generic.file.chooseImage' : 'generic.file.choose';

  return (
    <Box sx={{ mb: 2 }} data-testid={`file-input-${source}`}>
      <FormLabel htmlFor={chooserId} required={required} sx={{ display: 'block', mb: 0.5, fontSize: '0.85em' }}>
        {/* an i18n key, as react-admin's own inputs take it */}
        {translate(label, { _: label })}
      </FormLabel>
      {hasValue && !sending && info ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          {field.type === 'image' || info.hasThumbnail ? <FileThumbnail info={info} /> : null}
          <Typography variant="body2">
            <FileNameAndSize info={info} />
          </Typography>
          {required ? null : <Button label="generic.file.remove" onClick={() => input.onChange(null)} />}
        </Stack>
      ) : null}
      {sending ? (
        <Box sx={{ mb: 1, maxWidth: 480 }} role="status">
          <Typography variant="body2">{translate('generic.file.uploading', { name: sending.name, size: formatBytes(sending.size) })}</Typography>
          <LinearProgress
            variant={percent === null ? 'indeterminate' : 'determinate'}
            value={percent ?? 0}
            sx={{ my: 0.5 }}
            aria-label={translate('generic.file.uploading', { name: sending.name, size: formatBytes(sending.size) })}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="caption">{translate('generic.file.percent', { percent: percent ?? 0 })}</Typography>
            <Button label="generic.file.cancel" onClick={() => cancel.current?.abort()} />
          </Stack>
        </Box>
      ) : (
        <MuiButton component="label" variant="outlined" size="small" startIcon={<UploadFileIcon />}>
          {translate(chooseLabel)}
          <input id={chooserId} type="file" hidden accept={limits.accept?.join(',')} onChange={chosen} onBlur={input.onBlur} />
        </MuiButton>
      )}
      {refusal ? (
        <FormHelperText error>{refusal}</FormHelperText>
      ) : (
        <FormHelperText error={Boolean(fieldState.error)} component="div">
          <InputHelperText error={fieldState.error?.message} helperText={limitsText(translate, limits)} />
        </FormHelperText>
      )}
    </Box>
  );
};

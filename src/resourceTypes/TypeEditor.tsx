// Create or change a configured type. The editor validates on its own (`noValidate`: no browser
// bubbles, ./editorValidation), the server's issues come back on the inputs they name, in the user's
// language; a change that would lose data (9401) offers to archive the removed data and resend.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Form, Loading, ResourceContextProvider, SelectInput, TextInput, useNotify, useTranslate } from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Paper, Typography } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import { RESOURCES } from '../../resources';
import { HOME_MENU_ID, MENU } from '../../resources/menu';
import { issuesOf } from '../providers/wire';
import { ApiError } from '../providers/httpTypes';
import { menuChildKeys, type ConfiguredType } from './configuredType';
import { emptyTypeForm, formOf, identifierFromLabel, issuePath, setError, typeOf, type TypeFormValues } from './editorModel';
import { validateTypeForm } from './editorValidation';
import { FieldsInput } from './FieldsInput';
import { ListSettingsInput } from './ListSettingsInput';
import { RulesInput } from './RulesInput';
import { ARCHIVE_NEEDED_CODE } from './typesApi';
import { useAfterTypesChange, useTypes, useTypesApi } from './useTypes';

const LIST_ROUTE = '/systemSettings/resourceTypes';
const CODE_NAMES = RESOURCES.map((declaration) => declaration.name);
const SECTION_SX = { p: 2, mb: 2, minWidth: 0 } as const;
const ROW_SX = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', columnGap: 2 } as const;

/** Top-level menu entries a type may sit under (Home excluded). */
const MENU_PARENTS = MENU.filter((node) => node.id !== HOME_MENU_ID).map((node) => ({ id: node.key, name: `menu.${node.key}` }));

/** A new type's identifier follows its English label (singular, else plural) until the admin types one. */
const NameFromLabel = () => {
  const { setValue, getFieldState } = useFormContext<TypeFormValues>();
  const [singular, plural] = useWatch<TypeFormValues, ['singularEn', 'labelEn']>({ name: ['singularEn', 'labelEn'] });
  useEffect(() => {
    if (getFieldState('name').isDirty) return;
    setValue('name', identifierFromLabel(singular?.trim() ? singular : (plural ?? '')));
  }, [singular, plural, getFieldState, setValue]);
  return null;
};

/** Where in its menu the entry goes: after one of the parent's screens, or (empty) after every other one. */
const MenuAfterInput = () => {
  const { getValues, setValue } = useFormContext<TypeFormValues>();
  const parent = useWatch<TypeFormValues, 'menuParent'>({ name: 'menuParent' });
  const siblings = useMemo(() => menuChildKeys(parent ?? ''), [parent]);
  useEffect(() => {
    const chosen = getValues('menuAfter');
    if (chosen && !siblings.includes(chosen)) setValue('menuAfter', '');
  }, [siblings, getValues, setValue]);
  if (siblings.length === 0) return null; // beside a screen without children (Search): right after it
  return (
    <SelectInput
      source="menuAfter"
      label="resourceTypes.editor.menuAfter"
      choices={siblings.map((key) => ({ id: key, name: `menu.${key}` }))}
      emptyText="resourceTypes.editor.menuAtEnd"
      emptyValue=""
    />
  );
};

/** The server's issues on the form's inputs; those naming no input are returned for a toast. */
const placeIssues = (error: ApiError, values: TypeFormValues) => {
  const errors: Record<string, unknown> = {};
  const unplaced: string[] = [];
  for (const issue of issuesOf(error.data) ?? []) {
    const path = issuePath(issue.field, values);
    if (path) setError(errors, path, issue.message);
    else unplaced.push(issue.message);
  }
  return { errors, unplaced };
};

const ErrorSummary = () => {
  const translate = useTranslate();
  const { errors, submitCount } = useFormState();
  if (submitCount === 0 || Object.keys(errors).length === 0) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} role="alert">
      {translate('resourceTypes.validation.checkBelow')}
    </Alert>
  );
};

const SubmitButton = () => {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" startIcon={<SaveIcon />} disabled={isSubmitting}>
      {translate('resourceTypes.buttons.save')}
    </Button>
  );
};

interface ArchivePrompt {
  message: string;
  type: ConfiguredType;
}

const TypeForm = ({ initial, isNew }: { initial: TypeFormValues; isNew: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const api = useTypesApi();
  const afterChange = useAfterTypesChange();
  const [archive, setArchive] = useState<ArchivePrompt | null>(null);
  const validate = useCallback((values: Record<string, unknown>) => validateTypeForm(values as unknown as TypeFormValues, CODE_NAMES, isNew), [isNew]);

  const done = async () => {
    notify('resourceTypes.saved', { type: 'info' });
    await afterChange();
    void navigate(LIST_ROUTE);
  };

  const submit = async (raw: Record<string, unknown>) => {
    const values = raw as unknown as TypeFormValues;
    const type = typeOf(values);
    try {
      await (isNew ? api.create(type) : api.update(type));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === ARCHIVE_NEEDED_CODE) {
        // the server names the fields (resData.fields); its message is the generic text otherwise
        const fields = (error.data as { fields?: unknown } | undefined)?.fields;
        const message = Array.isArray(fields) && fields.length ? translate('resourceTypes.archiveDialog.fields', { fields: fields.join(', ') }) : error.message;
        setArchive({ message, type });
        return undefined;
      }
      const { errors, unplaced } = placeIssues(error, values);
      if (unplaced.length || Object.keys(errors).length === 0) notify(unplaced.join(' ') || error.message, { type: 'error' });
      return errors;
    }
    await done();
    return undefined;
  };

  const confirmArchive = async () => {
    if (!archive) return;
    try {
      await api.update(archive.type, true);
      setArchive(null);
      await done();
    } catch (error) {
      setArchive(null);
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
  };

  return (
    <>
      {/* array inputs need a resource context; every label here is explicit, none is derived from it */}
      <ResourceContextProvider value="resourceTypes">
        <Form defaultValues={initial} validate={validate} onSubmit={submit} noValidate>
          <ErrorSummary />
          <Paper sx={SECTION_SX}>
            <Typography component="h2" variant="h6">
              {translate('resourceTypes.editor.general')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate('resourceTypes.editor.nameHelp')}
            </Typography>
            <Box sx={ROW_SX}>
              <TextInput source="name" label="resourceTypes.editor.name" disabled={!isNew} />
              {isNew ? <NameFromLabel /> : null}
              <TextInput source="labelEn" label="resourceTypes.editor.labelEn" />
              <TextInput source="labelZh" label="resourceTypes.editor.labelZh" />
              <TextInput source="singularEn" label="resourceTypes.editor.singularEn" />
              <TextInput source="singularZh" label="resourceTypes.editor.singularZh" />
              <SelectInput source="menuParent" label="resourceTypes.editor.menuParent" choices={MENU_PARENTS} />
              <MenuAfterInput />
            </Box>
          </Paper>
          <Paper sx={SECTION_SX}>
            <FieldsInput typeName={initial.name} />
          </Paper>
          <Paper sx={SECTION_SX}>
            <RulesInput />
          </Paper>
          <Paper sx={SECTION_SX}>
            <ListSettingsInput />
          </Paper>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <SubmitButton />
            <Button component={RouterLink} to={LIST_ROUTE}>
              {translate('resourceTypes.buttons.cancel')}
            </Button>
          </Box>
        </Form>
      </ResourceContextProvider>
      <Dialog open={Boolean(archive)} onClose={() => setArchive(null)} aria-labelledby="archive-title">
        <DialogTitle id="archive-title">{translate('resourceTypes.archiveDialog.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('resourceTypes.archiveDialog.body')}</DialogContentText>
          <Alert severity="warning" sx={{ my: 1 }}>
            {archive?.message}
          </Alert>
          <DialogContentText>{translate('resourceTypes.archiveDialog.explain')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setArchive(null)}>{translate('resourceTypes.buttons.cancel')}</Button>
          <Button color="warning" variant="contained" onClick={() => void confirmArchive()}>
            {translate('resourceTypes.archiveDialog.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};

export const TypeEditor = () => {
  const translate = useTranslate();
  const { name } = useParams();
  const isNew = name === undefined;
  const { data: types, isPending } = useTypes();
  const existing = useMemo(() => types?.find((type) => type.name === name), [types, name]);
  const initial = useMemo(() => (existing ? formOf(existing) : emptyTypeForm()), [existing]);
  if (!isNew && isPending) return <Loading />;
  return (
    // remove and reorder buttons always shown (react-admin shows them on hover only: unreachable by keyboard);
    // one class more than react-admin's own rule, so it wins whatever order the styles load in
    <Box sx={{ minWidth: 0, maxWidth: 1200, '& .RaSimpleFormIterator-line > .RaSimpleFormIterator-action': { visibility: 'visible' } }}>
      <Button component={RouterLink} to={LIST_ROUTE} size="small" sx={{ mb: 1 }}>
        {translate('resourceTypes.buttons.back')}
      </Button>
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {isNew ? translate('resourceTypes.editor.createTitle') : translate('resourceTypes.editor.editTitle', { name })}
      </Typography>
      {!isNew && !existing ? (
        <Alert severity="error">{translate('errors.2003')}</Alert>
      ) : (
        <TypeForm key={existing ? `${existing.name}@${existing.version}` : 'new'} initial={initial} isNew={isNew} />
      )}
    </Box>
  );
};

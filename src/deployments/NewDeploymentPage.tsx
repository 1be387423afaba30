// The new-deployment form, /service/setup/deployments/create (`deployment:add`): package, targets with
// a live preview, waves and thresholds, the business gate and approval. The server's refusals land on
// the inputs they concern, in the user's language (8100 on the package, 8200 above the buttons).
import { useMemo } from 'react';
import { Form, useNotify, useTranslate } from 'ra-core';
import { useFormState, useWatch } from 'react-hook-form';
import { Title } from 'react-admin';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useConsoleServices } from '../layout/ConsoleServices';
import { ApiError } from '../providers/httpTypes';
import { issuesOf } from '../providers/wire';
import { initialValues, requestBody, submissionErrors, targetsOf, validateForm, wavePlanOf, type DeploymentFormValues } from './deploymentForm';
import { modelsOfPackage, PackagePicker, useUploadedPackages } from './PackagePicker';
import { DEPLOYMENTS_ROUTE, deploymentPath, presetOf } from './paths';
import { PreviewPanel } from './PreviewPanel';
import { ApprovalInput, GateInputs, WaveInputs } from './RolloutInputs';
import { TargetInputs, useFleetRecords } from './TargetInputs';
import { DEPLOYMENT_API } from './types';

const Section = ({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

const ServerError = () => {
  const { errors } = useFormState();
  const message = (errors.root as { serverError?: { message?: string } } | undefined)?.serverError?.message;
  if (!message) return null;
  return (
    <Alert severity="error" data-testid="deployment-form-error">
      {message}
    </Alert>
  );
};

const SubmitButtons = () => {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      <Button component={RouterLink} to={DEPLOYMENTS_ROUTE}>
        {translate('deployments.form.cancel')}
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} startIcon={isSubmitting ? <CircularProgress size={16} /> : undefined} data-testid="create-deployment">
        {translate('deployments.form.create')}
      </Button>
    </Stack>
  );
};

/** The form's body: it reads its own values (the chosen package, the targets) for the models offered and the preview. */
const FormBody = () => {
  const packageId = (useWatch({ name: 'packageId' }) as number | null) ?? null;
  const values = useWatch() as DeploymentFormValues;
  const { packages, isPending } = useUploadedPackages(packageId);
  const fleets = useFleetRecords();
  const chosen = packages.find((pkg) => pkg.id === packageId);
  const targets = useMemo(() => targetsOf(values, fleets), [values, fleets]);
  const plan = wavePlanOf(values);

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 2, alignItems: 'start' }}>
      <Stack spacing={2} sx={{ minWidth: 0 }}>
        <Section title="deployments.form.packageSection" testId="section-package">
          <PackagePicker packages={packages} isPending={isPending} />
        </Section>
        <Section title="deployments.form.targetsSection" testId="section-targets">
          <TargetInputs models={modelsOfPackage(chosen)} />
        </Section>
        <Section title="deployments.form.rolloutSection" testId="section-rollout">
          <WaveInputs />
        </Section>
        <Section title="deployments.form.gateSection" testId="section-gate">
          <GateInputs />
        </Section>
        <Section title="deployments.form.approvalSection" testId="section-approval">
          <ApprovalInput />
        </Section>
        <ServerError />
        <SubmitButtons />
      </Stack>
      <Box sx={{ position: { md: 'sticky' }, top: { md: 16 }, minWidth: 0 }}>
        <Section title="deployments.preview.title" testId="section-preview">
          <PreviewPanel packageId={packageId} targets={targets} plan={plan} />
        </Section>
      </Box>
    </Box>
  );
};

const NewDeploymentPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { http } = useConsoleServices();
  const fleets = useFleetRecords();
  const defaults = useMemo(() => initialValues(presetOf(search)), [search]);

  const submit = async (values: Record<string, unknown>) => {
    try {
      const created = await http.post<{ id: number }>(DEPLOYMENT_API, requestBody(values as unknown as DeploymentFormValues, fleets), { silent: true });
      notify('deployments.form.created', { type: 'info', messageArgs: { id: created.id } });
      void navigate(deploymentPath(created.id));
      return undefined;
    } catch (failure) {
      if (!(failure instanceof ApiError)) return { root: { serverError: translate('errors.network') } };
      return submissionErrors(failure.code, failure.message, issuesOf(failure.data) ?? []);
    }
  };

  return (
    <Box data-testid="new-deployment-page">
      <Title title="deployments.form.title" />
      <Button component={RouterLink} to={DEPLOYMENTS_ROUTE} startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
        {translate('deployments.backToList')}
      </Button>
      {/* noValidate: the checks speak the user's language, no browser bubbles */}
      <Form defaultValues={defaults} validate={(values) => validateForm(values as unknown as DeploymentFormValues)} onSubmit={submit} noValidate>
        <FormBody />
      </Form>
    </Box>
  );
};

export default NewDeploymentPage;

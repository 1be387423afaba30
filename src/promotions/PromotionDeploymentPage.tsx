// Promotion › promotionDeployment (docs/promotions.md#deploying): deploy an option (or the default promotion
// alone) through the deployments engine, follow its deployments (each links to the deployment page with its
// waves and per-machine statuses), and see which promotion each machine shows (its last applied package).
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, Link, MenuItem, Table, TableBody, TableCell, TableHead, TablePagination, TableRow, TextField, Typography } from '@mui/material';
import { promotionOption } from '../../resources/promotions';
import { DeploymentProgress, DeploymentStatusChip } from '../deployments/StatusParts';
import { deploymentPath } from '../kit/QueryPagedTable';
import { useApiQuery } from '../kit/useApiQuery';
import { formatDateTime } from '../generic/format';
import { ApiError } from '../providers/httpTypes';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { useConsoleServices } from '../layout/ConsoleServices';

interface PromotionDeployment {
  id: number;
  name: string;
  version: string;
  status: string;
  createdTime: string;
  total: number;
  applied: number;
  failed: number;
}
interface ShowingRow {
  id: number;
  termNo: string;
  termType: string;
  online: boolean;
  shown: { packageId: number; name: string; version: string; deploymentId: number; appliedTime: string } | null;
}

const LIVE_MS = 3000;
const DEFAULT_ONLY = 'default';

const DeployCard = ({ onDeployed }: { onDeployed: () => void }) => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const options = useApiQuery(['promotionOptions'], (client, signal) =>
    client.get<Array<{ id: number; name: string }>>(`${promotionOption.apiPath}/list`, undefined, { signal, silent: true }),
  );
  const [choice, setChoice] = useState<string>(DEFAULT_ONLY);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true; id: number; count: number } | { ok: false; message: string } | null>(null);
  const deploy = async () => {
    setSending(true);
    setOutcome(null);
    try {
      const body = choice === DEFAULT_ONLY ? {} : { optionId: Number(choice) };
      const created = await http.post<{ deploymentId: number; targeted: number }>('/promotion/deploy', body, { silent: true });
      setOutcome({ ok: true, id: created.deploymentId, count: created.targeted });
      onDeployed();
    } catch (failure) {
      setOutcome({ ok: false, message: failure instanceof ApiError ? failure.message : translate('errors.network') });
    } finally {
      setSending(false);
    }
  };
  return (
    <Card variant="outlined" data-testid="promotion-deploy">
      <CardContent>
        <Typography variant="subtitle1" component="h2">
          {translate('promotions.deploy.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 900 }}>
          {translate('promotions.deploy.hint')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label={translate('promotions.deploy.option')}
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
            sx={{ minWidth: 320 }}
            data-testid="promotion-option-select"
          >
            <MenuItem value={DEFAULT_ONLY}>{translate('promotions.deploy.defaultOnly')}</MenuItem>
            {(options.data ?? []).map((option) => (
              <MenuItem key={option.id} value={String(option.id)}>
                {option.name}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="contained" onClick={() => void deploy()} disabled={sending} data-testid="promotion-deploy-submit">
            {translate('promotions.deploy.submit')}
          </Button>
        </Box>
        {outcome?.ok === true ? (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="promotion-deploy-created">
            {translate('promotions.deploy.created', { id: outcome.id, count: outcome.count })}{' '}
            <Link component={RouterLink} to={deploymentPath(outcome.id)}>
              {translate('promotions.deploy.open', { id: outcome.id })}
            </Link>
          </Alert>
        ) : null}
        {outcome?.ok === false ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="promotion-deploy-error">
            {outcome.message}
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
};

const DeploymentsCard = ({ list }: { list: PromotionDeployment[] | undefined }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`promotions.deployments.${key}`);
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
          {t('title')}
        </Typography>
        {list && list.length === 0 ? (
          <Typography color="text.secondary">{t('empty')}</Typography>
        ) : (
          <Table size="small" data-testid="promotion-deployments">
            <TableHead>
              <TableRow>
                <TableCell>{t('name')}</TableCell>
                <TableCell>{t('version')}</TableCell>
                <TableCell>{t('status')}</TableCell>
                <TableCell>{t('progress')}</TableCell>
                <TableCell>{t('createdTime')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(list ?? []).map((row) => (
                <TableRow key={row.id}>
                  <TableCell>
                    <Link component={RouterLink} to={deploymentPath(row.id)}>
                      {row.name}
                    </Link>
                  </TableCell>
                  <TableCell>{row.version}</TableCell>
                  <TableCell>
                    <DeploymentStatusChip status={row.status} />
                  </TableCell>
                  <TableCell>
                    <DeploymentProgress applied={row.applied} failed={row.failed} total={row.total} />
                  </TableCell>
                  <TableCell>{formatDateTime(row.createdTime)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};

const ShowingCard = () => {
  const translate = useTranslate();
  const t = (key: string) => translate(`promotions.showing.${key}`);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const [search, setSearch] = useState('');
  const body = { pageNum: page + 1, pageSize, ...(search.trim() ? { termNoLike: search.trim() } : {}) };
  const answer = useApiQuery(
    ['promotionShowing', body],
    (client, signal) => client.post<{ list: ShowingRow[]; total: number }>('/promotion/showing', body, { signal, silent: true }),
    { refreshEveryMs: LIVE_MS },
  );
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="subtitle1" component="h2">
          {t('title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('hint')}
        </Typography>
        <TextField
          size="small"
          label={t('search')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(0);
          }}
          sx={{ mb: 1 }}
        />
        <Table size="small" data-testid="promotion-showing">
          <TableHead>
            <TableRow>
              <TableCell>{t('termNo')}</TableCell>
              <TableCell>{t('model')}</TableCell>
              <TableCell>{t('online')}</TableCell>
              <TableCell>{t('shown')}</TableCell>
              <TableCell>{t('appliedTime')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(answer.data?.list ?? []).map((row) => (
              <TableRow key={row.id} data-testid={`showing-${row.termNo}`}>
                <TableCell>{row.termNo}</TableCell>
                <TableCell>{row.termType}</TableCell>
                <TableCell>{row.online ? t('yes') : t('no')}</TableCell>
                <TableCell>
                  {row.shown ? (
                    <Link component={RouterLink} to={deploymentPath(row.shown.deploymentId)}>
                      {`${row.shown.name} (${row.shown.version})`}
                    </Link>
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      {t('nothing')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{row.shown ? formatDateTime(row.shown.appliedTime) : ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          count={answer.data?.total ?? 0}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[10, 20, 50]}
          onPageChange={(_event, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(0);
          }}
        />
      </CardContent>
    </Card>
  );
};

const PromotionDeploymentPage = ({ node }: ScreenProps) => {
  const deployments = useApiQuery(['promotionDeployments'], (client, signal) => client.get<PromotionDeployment[]>('/promotion/deployments', undefined, { signal, silent: true }), {
    refreshEveryMs: LIVE_MS,
  });
  return (
    <Box data-testid="promotion-deployment-page" sx={{ display: 'grid', gap: 2 }}>
      <ScreenHeading node={node} />
      <DeployCard onDeployed={deployments.reload} />
      <DeploymentsCard list={deployments.data} />
      <ShowingCard />
    </Box>
  );
};

export default PromotionDeploymentPage;

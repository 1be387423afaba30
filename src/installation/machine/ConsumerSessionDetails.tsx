// Consumer session details (GET /rvmpage/consumerSessionDetails): machine, period, payout method,
// total refund, user ID, voucher code, and the items with type, barcode, category, refund, the
// reject reason (docs/product-rules.md#catalogues) and the item picture. Opened below the ConsumerSessions tab, from a row or a search hit.
import type { ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink, Navigate } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, Chip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { ApiError } from '../../providers/httpTypes';
import { useApiQuery } from '../../kit/useApiQuery';
import { formatMoney } from '../../kit/format';
import { LoadState } from '../../kit/LoadState';
import { PagedTable, type Column } from '../../kit/PagedTable';
import type { ConsumerSessionDetails as Details, ConsumerSessionItem } from './machineTypes';
import { consumerSessionPath, CONSUMER_SESSIONS_TAB, machinePagePath } from '../../pages/machinePaths';

const Fact = ({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) => (
  <Box sx={{ minWidth: 180 }}>
    <Typography variant="caption" color="text.secondary" component="dt">
      {label}
    </Typography>
    <Typography component="dd" sx={{ m: 0 }} data-testid={testId}>
      {children === null || children === undefined || children === '' ? '–' : children}
    </Typography>
  </Box>
);

const ItemPicture = ({ item }: { item: ConsumerSessionItem }) => {
  const translate = useTranslate();
  if (!item.pictureUrl) return <>–</>;
  const type = translate(`fleet.itemTypes.${item.itemType}`, { _: item.itemType });
  return (
    <Box
      component="img"
      src={item.pictureUrl}
      alt={translate('installation.sessions.pictureAlt', { type, seq: item.seq })}
      width={48}
      height={64}
      sx={{ display: 'block', borderRadius: 0.5, border: 1, borderColor: 'divider' }}
      data-testid="item-picture"
    />
  );
};

export const ConsumerSessionDetails = ({ machineId, sessionId }: { machineId: number; sessionId: string }) => {
  const translate = useTranslate();
  const { locale, session } = useConsoleServices();
  const validId = /^\d{1,12}$/.test(sessionId);
  const { data, error, isPending, reload } = useApiQuery(
    ['consumerSessionDetails', sessionId],
    validId ? (http, signal) => http.get<Details>('/rvmpage/consumerSessionDetails', { id: Number(sessionId) }, { signal, silent: true }) : null,
  );
  const missing = !validId || (error instanceof ApiError && (error.code === '2003' || error.code === '1003' || error.code === '1004'));
  const back = (
    <Button component={RouterLink} to={machinePagePath(machineId, CONSUMER_SESSIONS_TAB)} startIcon={<ArrowBackIcon />} sx={{ mb: 1 }}>
      {translate('installation.sessions.back')}
    </Button>
  );
  if (missing) {
    return (
      <>
        {back}
        <Alert severity="warning" data-testid="session-not-found">
          {translate('installation.sessions.notFound')}
        </Alert>
      </>
    );
  }
  // A session of another machine (an edited URL): show it under its own machine.
  if (data && data.session.rvmId !== machineId) return <Navigate to={consumerSessionPath(data.session.rvmId, data.session.id)} replace />;

  const columns: Column<ConsumerSessionItem>[] = [
    { key: 'seq', label: 'fleet.item.seq', render: (item) => item.seq, align: 'right' },
    { key: 'picture', label: 'fleet.item.picture', render: (item) => <ItemPicture item={item} /> },
    { key: 'itemType', label: 'fleet.item.itemType', render: (item) => translate(`fleet.itemTypes.${item.itemType}`, { _: item.itemType }) },
    { key: 'barcode', label: 'fleet.item.barcode', render: (item) => item.barcode, nowrap: true },
    { key: 'category', label: 'fleet.item.category', render: (item) => item.category },
    { key: 'refund', label: 'fleet.item.refund', render: (item) => formatMoney(item.refund, locale, session.getCurrency()), align: 'right' },
    {
      key: 'rejectReason',
      label: 'fleet.item.rejectReason',
      render: (item) =>
        item.rejectReason === null ? (
          <Chip size="small" color="success" variant="outlined" label={translate('fleet.item.accepted')} />
        ) : (
          <Chip size="small" color="error" variant="outlined" label={translate(`fleet.rejectReasons.${item.rejectReason}`, { _: String(item.rejectReason) })} />
        ),
    },
  ];

  return (
    <>
      {back}
      <LoadState isPending={isPending} error={error} onRetry={reload} hasData={Boolean(data)}>
        {data ? (
          <Box data-testid="session-details">
            <Card variant="outlined" sx={{ mb: 2 }}>
              <CardContent>
                <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
                  {translate('fleet.consumerSession.title')}
                </Typography>
                <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, m: 0 }}>
                  <Fact label={translate('fleet.consumerSession.termNo')}>
                    {data.session.termNo} ({data.session.serialNumber})
                  </Fact>
                  <Fact label={translate('installation.sessions.period')}>
                    {data.session.startTime} – {data.session.endTime}
                  </Fact>
                  <Fact label={translate('fleet.consumerSession.payoutMethod')}>
                    {translate(`fleet.payoutMethods.${data.session.payoutMethod}`, { _: data.session.payoutMethod })}
                  </Fact>
                  <Fact label={translate('fleet.consumerSession.totalRefund')}>{formatMoney(data.session.totalRefund, locale, session.getCurrency())}</Fact>
                  <Fact label={translate('fleet.consumerSession.userId')}>{data.session.userId}</Fact>
                  <Fact label={translate('fleet.consumerSession.voucherCode')} testId="session-voucher">
                    {data.session.voucherCode}
                  </Fact>
                  {data.session.donationInstitute ? <Fact label={translate('fleet.consumerSession.donationInstitute')}>{data.session.donationInstitute}</Fact> : null}
                  <Fact label={translate('fleet.consumerSession.itemCount')}>
                    {data.session.itemCount} ({translate('fleet.consumerSession.acceptedCount')} {data.session.acceptedCount}, {translate('fleet.consumerSession.rejectedCount')}{' '}
                    {data.session.rejectedCount})
                  </Fact>
                </Box>
              </CardContent>
            </Card>
            <PagedTable
              columns={columns}
              rows={data.items}
              total={data.items.length}
              page={1}
              pageSize={data.items.length}
              unpaged
              onPage={() => undefined}
              onPageSize={() => undefined}
              rowKey={(item) => item.seq}
              isPending={false}
              error={null}
              onRetry={reload}
              empty="installation.sessions.noItems"
              caption={translate('fleet.consumerSession.itemCount')}
              testId="session-items"
            />
          </Box>
        ) : null}
      </LoadState>
    </>
  );
};

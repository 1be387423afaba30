// /search/search (docs/product-rules.md#menu-tree): one box finding machines (serial, RVM number, address) and consumer
// sessions (voucher code, user ID) through GET /search?q=; typed hits open the machine page or the
// session details. A voucher code typed here that names exactly one session opens it straight away.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, Chip, InputAdornment, List, ListItemButton, ListItemText, Paper, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useConsoleServices } from '../layout/ConsoleServices';
import { formatMoney } from '../kit/format';
import { LoadState } from '../kit/LoadState';
import { StatusChip } from '../kit/StatusChip';
import { useApiQuery } from '../kit/useApiQuery';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { directVoucherHit, groupHits, hitPath, type ConsumerSessionHit, type MachineHit, type SearchAnswer } from './searchHits';

const MAX_QUERY = 64;

/** Which field matched, labelled as the field itself is (the machine declaration, the session vocabulary). */
const MatchedChip = ({ label }: { label: string }) => {
  const translate = useTranslate();
  return <Chip size="small" variant="outlined" label={translate(label)} sx={{ ml: 1 }} />;
};

const MachineHits = ({ hits }: { hits: readonly MachineHit[] }) => {
  const translate = useTranslate();
  return (
    <List dense aria-label={translate('fleet.search.hitTypes.machine')}>
      {hits.map((hit) => (
        <ListItemButton key={`m${hit.id}`} component={RouterLink} to={hitPath(hit)} data-testid="search-hit-machine">
          <ListItemText
            primary={
              <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <strong>{hit.termNo}</strong>
                <StatusChip value={hit.currentSts} />
                <MatchedChip label={`resources.machine.fields.${hit.matched}`} />
              </Box>
            }
            secondary={[hit.serialNumber, hit.termType, hit.address].filter(Boolean).join(' · ')}
          />
        </ListItemButton>
      ))}
    </List>
  );
};

const SessionHits = ({ hits }: { hits: readonly ConsumerSessionHit[] }) => {
  const translate = useTranslate();
  const { locale, session } = useConsoleServices();
  return (
    <List dense aria-label={translate('fleet.search.hitTypes.consumerSession')}>
      {hits.map((hit) => (
        <ListItemButton key={`s${hit.id}`} component={RouterLink} to={hitPath(hit)} data-testid="search-hit-session">
          <ListItemText
            primary={
              <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <strong>{hit.matched === 'voucherCode' ? hit.voucherCode : hit.userId}</strong>
                <MatchedChip label={`fleet.consumerSession.${hit.matched}`} />
              </Box>
            }
            secondary={[
              hit.termNo,
              hit.startTime,
              translate(`fleet.payoutMethods.${hit.payoutMethod}`, { _: hit.payoutMethod }),
              formatMoney(hit.totalRefund, locale, session.getCurrency()),
            ].join(' · ')}
          />
        </ListItemButton>
      ))}
    </List>
  );
};

const HitSection = ({ title, count, children }: { title: string; count: number; children: ReactNode }) =>
  count === 0 ? null : (
    <Box sx={{ mt: 2 }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title} ({count})
      </Typography>
      {children}
    </Box>
  );

const SearchPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  const [typed, setTyped] = useState(query);
  // Only a search typed on this page may jump to a session: coming back to ?q= must show the list.
  const typedQuery = useRef<string | null>(null);
  const { data, error, isPending, reload } = useApiQuery(['search', query], query ? (http, signal) => http.get<SearchAnswer>('/search', { q: query }, { signal }) : null);

  useEffect(() => setTyped(query), [query]);

  useEffect(() => {
    if (!data || data.q !== query || typedQuery.current !== query) return;
    typedQuery.current = null;
    const direct = directVoucherHit(query, data.hits);
    if (direct) void navigate(hitPath(direct));
  }, [data, query, navigate]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = typed.trim().slice(0, MAX_QUERY);
    if (!next) return;
    typedQuery.current = next;
    if (next === query) reload();
    else setParams({ q: next });
  };

  const groups = groupHits(data?.hits ?? []);
  const current = data && data.q === query;

  return (
    <Paper sx={{ p: 3 }} data-testid="search-page">
      <ScreenHeading node={node} />
      <Box component="form" role="search" onSubmit={submit} sx={{ display: 'flex', alignItems: 'center', gap: 1, maxWidth: 720 }}>
        <TextField
          fullWidth
          size="small"
          autoFocus
          name="q"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder={translate('fleet.search.placeholder')}
          slotProps={{
            htmlInput: { maxLength: MAX_QUERY, 'aria-label': translate('fleet.search.placeholder'), 'data-testid': 'search-input' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button type="submit" variant="contained" data-testid="search-submit">
          {translate('installation.search.submit')}
        </Button>
      </Box>
      {!query ? (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          {translate('installation.search.hint')}
        </Typography>
      ) : (
        <Box aria-live="polite" data-testid="search-results">
          <LoadState
            isPending={isPending || !current}
            error={error}
            onRetry={reload}
            hasData={Boolean(current && data.hits.length)}
            empty={<Typography sx={{ mt: 2 }}>{translate('fleet.search.noHits')}</Typography>}
          >
            <HitSection title={translate('fleet.search.hitTypes.machine')} count={groups.machines.length}>
              <MachineHits hits={groups.machines} />
            </HitSection>
            <HitSection title={translate('fleet.search.hitTypes.consumerSession')} count={groups.sessions.length}>
              <SessionHits hits={groups.sessions} />
            </HitSection>
            {data?.truncated ? (
              <Alert severity="info" sx={{ mt: 1 }}>
                {translate('installation.search.truncated')}
              </Alert>
            ) : null}
          </LoadState>
        </Box>
      )}
    </Paper>
  );
};

export default SearchPage;

// The skeleton of the version screens (Service › Software upgrade and AI, docs/deployments.md
// "Versions"): the screen's heading, one answer with an entry per machine model read from `api`, its
// loading, failure and empty states, and one card per model in a grid of two columns on wide screens.
import { Fragment, type ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Typography } from '@mui/material';
import { LoadState } from '../kit/LoadState';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { useLiveQuery } from './useLiveQuery';

export interface ModelCardsPageProps<T extends { model: string }> extends ScreenProps {
  api: string;
  /** Catalogue key of the text shown when the license account has no machine. */
  empty: string;
  testId: string;
  card: (model: T) => ReactNode;
}

export const ModelCardsPage = <T extends { model: string }>({ node, api, empty, testId, card }: ModelCardsPageProps<T>) => {
  const translate = useTranslate();
  const loaded = useLiveQuery([api], (http, signal) => http.get<T[]>(api, undefined, { signal, silent: true }));
  const models = loaded.data ?? [];
  return (
    <Box data-testid={testId}>
      <ScreenHeading node={node} />
      <LoadState
        isPending={loaded.isPending}
        error={loaded.error}
        onRetry={loaded.reload}
        hasData={models.length > 0}
        empty={
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="empty">
            {translate(empty)}
          </Typography>
        }
      >
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' }, gap: 2, alignItems: 'start' }}>
          {models.map((model) => (
            <Fragment key={model.model}>{card(model)}</Fragment>
          ))}
        </Box>
      </LoadState>
    </Box>
  );
};

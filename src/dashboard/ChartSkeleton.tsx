// The charts' placeholder (while the dashboard's data or the charts' code load): charts are a chunk
// of their own (recharts), so the cards show before it arrives.
import { Skeleton } from '@mui/material';

export const CHART_HEIGHT = 240;

export const ChartSkeleton = () => <Skeleton variant="rounded" height={CHART_HEIGHT} />;

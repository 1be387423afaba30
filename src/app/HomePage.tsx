// The home route /index/index: the home dashboard (src/dashboard), loaded when first opened (its charts
// bring recharts along); the menu screen around it shows the loading state meanwhile.
import { lazy } from 'react';
import type { ScreenProps } from '../pages/screenProps';

const DashboardPage = lazy(() => import('../dashboard/DashboardPage'));

export const HomePage = (props: ScreenProps) => <DashboardPage {...props} />;

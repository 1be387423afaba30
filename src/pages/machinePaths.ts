// The paths of the installation screens that other features link to (search hits, command batches,
// deployments): here, below every feature, so linking to a machine imports nothing of the machine page.
export const FLEET_MANAGEMENT_ROUTE = '/installation/fleetManagement';
export const MACHINE_PAGE_ROUTE = '/installation/rvmpage';

/** The tab that lists consumer sessions; session details open below it. */
export const CONSUMER_SESSIONS_TAB = 'ConsumerSessions';

/** `/installation/rvmpage/<id>[/<tab>]`. */
export const machinePagePath = (machineId: number | string, tab?: string): string => `${MACHINE_PAGE_ROUTE}/${encodeURIComponent(String(machineId))}${tab ? `/${tab}` : ''}`;

/** The consumer session details page, below the machine's ConsumerSessions tab. */
export const consumerSessionPath = (machineId: number | string, sessionId: number | string): string =>
  `${machinePagePath(machineId, CONSUMER_SESSIONS_TAB)}/${encodeURIComponent(String(sessionId))}`;

// API hookups (docs/api-hookups.md): the delivery, failing-app and retention jobs and the area's own routes.
import type { Services } from '../services';
import type { TypedApp } from '../lib/typedApp';
import { deliverDue } from './delivery';
import { disableFailingApps } from './failing';
import { deleteSettledMessages, HOOKUP_RETENTION_JOB } from './retention';
import { registerHookupRoutes, type MachineAuthenticator } from './routes';

export { HOOKUP_HOOKS } from './resources';
export { HOOKUP_VIEWS } from './views';

export const registerHookups = (app: TypedApp, services: Services, authenticateMachine: MachineAuthenticator) => {
  services.jobs.add({ name: 'hookupDelivery', everyMs: 1_000, runAtStart: true, run: (now) => deliverDue(services.db, now) });
  services.jobs.add({ name: 'hookupDisableFailing', everyMs: 3_600_000, runAtStart: true, run: (now) => disableFailingApps(services.db, services.mailer, now, app.log) });
  services.jobs.add({ name: HOOKUP_RETENTION_JOB, everyMs: 3_600_000, runAtStart: true, run: (now) => deleteSettledMessages(services.db, now) });
  registerHookupRoutes(app, services.db, authenticateMachine);
};

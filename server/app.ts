// buildApp: the whole server as one testable Fastify instance (tests drive it with app.inject()).
// Opens (or reuses) the database, applies migrations and seeds under an advisory lock, then
// registers the API under /test-api, the OpenAPI docs and, when given, the built console.
import Fastify, { type FastifyInstance } from 'fastify';
import { RESOURCES } from '../resources';
import type { ResourceDeclaration } from '../resources/types';
import { CallerCache } from './auth/callerCache';
import { registerGuard } from './auth/guard';
import type { CallerEntry } from './auth/principal';
import { createPasswordHasher } from './auth/passwords';
import { DEFAULT_CONFIG, type ServerConfig } from './config';
import { registerCrudRoutes } from './crud/routes';
import { registerFleetRoutes } from './fleet/routes';
import { registerCommandRoutes } from './commands/routes';
import { registerEventRoutes } from './events/routes';
import { registerDashboardRoutes } from './dashboard/routes';
import { registerPerformanceRoutes } from './performance/routes';
import { seedDemoFleetIfEmpty } from './seed/demoFleet';
import { modelsOf, prepareSchema, type ModelExtras } from './schemaAtStart';
import { openDatabase, type Database } from './db/client';
import { registerInputGuards, validatorCompiler } from './lib/ajv';
import { clientErrorHandler } from './lib/clientErrors';
import { endSilentConnectionsOnClose } from './lib/silentConnections';
import { registerErrorHandler, sendFailure } from './lib/errorHandler';
import { invalidField } from './lib/errors';
import { loggerOptions } from './lib/logger';
import { createMailer } from './mail/mailer';
import { registerOpenApi, registerOpenApiUi } from './lib/openapi';
import { typedApp } from './lib/typedApp';
import { registerConsole } from './lib/console';
import { registerApiProtections, registerSecurityHeaders } from './lib/httpSecurity';
import { registerLicenseAccountRoutes } from './session/licenseAccount';
import { registerLoginRoutes } from './session/login';
import { registerPasswordRoutes } from './session/password';
import { registerSavedFilterRoutes } from './savedFilters/routes';
import type { Services } from './services';
import { NO_GATEWAY } from './gateway/types';
import { startGateway, type GatewayOptions } from './gateway';
import { registerGatewayRoutes } from './gateway/routes';
import { registerDeploymentRoutes } from './deployments/routes';
import { registerConfigurationRoutes } from './configurations/routes';
import { registerConfigTemplateRoutes } from './configTemplates/routes';
import { registerPackageDownload } from './deployments/download';
import { registerVersionRoutes } from './deployments/versions';
import { registerAiRoutes } from './deployments/aiModels';
import { registerAiTrainingRoutes } from './ai/routes';
import { registerPromotionRoutes } from './promotions/routes';
import { registerPersonnelRoutes } from './personnel/packages';
import { createJobRunner } from './jobs/periodic';
import { registerAuditRetentionJob } from './audit/retention';
import { registerRequestContext } from './lib/requestContext';
import { registerReportNotificationJob } from './reports/scheduler';
import { registerReportRoutes } from './reports/routes';
import { registerReportNotificationSendNow } from './reports/sendNow';
import { registerConfiguredTypeRoutes, startConfiguredTypes } from './configuredTypes';
import { registerFileRoutes } from './files/routes';
import { registerResumableUploads } from './files/resumable';
import { registerHookups } from './hookups';
import { authenticateMachine } from './gateway/credentials';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export const API_PREFIX = '/test-api';

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export interface BuildAppOptions extends ModelExtras {
  /** An open database shared with other app instances; the app does not close it. */
  database?: Database;
  /** Otherwise one is opened (and closed with the app): PostgreSQL when set, else PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; absent means in memory. */
  dataDir?: string;
  config?: Partial<ServerConfig>;
  /** false (default) for none; true or options for pino with redaction. */
  logger?: boolean | { level?: string; stream?: NodeJS.WritableStream };
  /** Folder of the built console served at / (SPA fallback to index.html). */
  staticDir?: string;
  /** Resource declarations (default resources/index.ts RESOURCES); a test fixture adds its tables and hooks (ModelExtras). */
  resources?: readonly ResourceDeclaration[];
  /** Seed a small demo fleet (about 200 machines, 30 days) into a database that never had a fleet. */
  demoFleet?: boolean;
  /** Run periodic jobs on timers (server.ts: yes; tests call `services.jobs.runNow` instead). */
  backgroundJobs?: boolean;
  /** Start the machine gateway (embedded broker or external broker); without it commands wait as for offline machines. */
  gateway?: GatewayOptions;
  /** Told what start-up is doing before the app's logger exists (server.ts prints it: a first start takes a while). */
  progress?: (step: string) => void;
}

export const buildApp = async (options: BuildAppOptions = {}): Promise<FastifyInstance> => {
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...options.config };
  const progress = options.progress ?? (() => undefined);
  if (!options.database) progress(options.databaseUrl ? 'connecting to PostgreSQL' : `opening the embedded database (PGlite) in ${options.dataDir ?? 'memory'}`);
  const database = options.database ?? (await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir }));
  const closeOwnDatabase = () => (options.database ? Promise.resolve() : database.close());
  try {
    const declarations = options.resources ?? RESOURCES;
    const hasher = createPasswordHasher(config.passwordHashLogN);
    const models = modelsOf(declarations, hasher, options);
    progress('migrating and seeding the schema');
    await prepareSchema(database, { config, hasher, declarations, models });
    // A living console from the first minute: a small demo fleet, only on a database that never had one.
    if (options.demoFleet) {
      progress('loading the demo fleet if the database has none (the first start: about half a minute)');
      await database.migrateLocked((db) => seedDemoFleetIfEmpty(db));
    }
    const logger = options.logger ? loggerOptions(options.logger === true ? 'info' : options.logger.level, options.logger === true ? undefined : options.logger.stream) : false;
    const app = Fastify({
      logger,
      bodyLimit: 1024 * 1024,
      // A hop count becomes proxy-addr's function (Fastify's typings take no number).
      trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
      routerOptions: { ignoreTrailingSlash: true },
      // A malformed or over-long address answers the envelope (1004), never Fastify's own JSON.
      clientErrorHandler,
      frameworkErrors: (_error, request, reply) => {
        // the reply is sent; Fastify wants no answer from this hook
        void sendFailure(request, reply, invalidField('(url)', 'validation.invalid'));
      },
    });
    const jobs = createJobRunner(app.log, { autoStart: options.backgroundJobs ?? false });
    const services: Services = { database, db: database.db, config, hasher, mailer: createMailer(config), models, jobs, gateway: NO_GATEWAY };
    app.decorate('services', services);
    endSilentConnectionsOnClose(app);
    registerAuditRetentionJob(services);
    app.setValidatorCompiler(validatorCompiler);
    registerInputGuards(app);
    registerErrorHandler(app);
    app.addHook('onClose', closeOwnDatabase);
    // onClose hooks run last-added first: background work stops before the database closes.
    app.addHook('onClose', () => jobs.stop());
    // Types defined at run time (issue 9): files loaded, indexes and permission rows ensured, the poll started.
    const configuredTypes = await startConfiguredTypes(database, models, config.resourceTypesDir, app.log);
    app.addHook('onClose', () => configuredTypes.close());
    services.configuredTypes = configuredTypes;
    // From here on the engine resolves references and delete behaviour against code and configured models alike.
    services.models = configuredTypes.models();
    if (options.gateway) {
      progress('starting the machine gateway');
      services.gateway = await startGateway(services.db, jobs, app.log, { apiBase: `${config.publicUrl}${API_PREFIX}`, ...options.gateway });
      app.addHook('onClose', () => services.gateway.close());
    }

    // Resolved callers in memory, forgotten on any change to what they were read from (callerCache.ts).
    const callers = new CallerCache<CallerEntry>(database.callerChanges, config.callerCacheSeconds * 1000);
    app.addHook('onClose', async () => callers.close());
    services.callers = callers;

    // The request's address for the audit log, wherever its entries are written (lib/requestContext.ts).
    registerRequestContext(app);
    await registerSecurityHeaders(app);
    await registerOpenApi(app, config.version);
    await app.register(
      async (plain) => {
        // Route schemas are TypeBox types (lib/typedApp.ts); still validated by validatorCompiler.
        const api = typedApp(plain);
        await registerApiProtections(api, config);
        registerGuard(api, services.db, config, callers);
        registerLoginRoutes(api, services);
        registerPasswordRoutes(api, services);
        registerLicenseAccountRoutes(api, services);
        registerSavedFilterRoutes(api, services);
        registerCrudRoutes(api, services, models);
        registerFleetRoutes(api, services);
        registerCommandRoutes(api, services);
        registerEventRoutes(api, services);
        registerGatewayRoutes(api, services);
        registerDashboardRoutes(api, services);
        registerPerformanceRoutes(api, services);
        registerReportNotificationJob(api, services);
        registerReportNotificationSendNow(api, services);
        registerReportRoutes(api, services);
        registerConfiguredTypeRoutes(api, services, configuredTypes);
        registerFileRoutes(api, services);
        registerResumableUploads(api, services);
        registerHookups(api, services, authenticateMachine);
        registerDeploymentRoutes(api, services);
        registerConfigurationRoutes(api, services);
        registerConfigTemplateRoutes(api, services);
        registerPackageDownload(api, services, authenticateMachine);
        registerVersionRoutes(api, services);
        registerAiRoutes(api, services);
        registerAiTrainingRoutes(api, services);
        registerPromotionRoutes(api, services);
        registerPersonnelRoutes(api, services);
      },
      { prefix: API_PREFIX },
    );
    await registerOpenApiUi(app);
    await registerConsole(app, API_PREFIX, options.staticDir);
    await app.ready();
    return app;
  } catch (error) {
    await closeOwnDatabase();
    throw error;
  }
};

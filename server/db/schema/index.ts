// All Drizzle tables. drizzle-kit reads this file to generate migrations (`npm run db:generate`);
// server/db/registry.ts maps every table exported here by its SQL name for the CRUD engine.
export * from './system';
export * from './auth';
export * from './fleet';
export * from './fleetActivity';
export * from './quarantine';
export * from './liveFleet';
export * from './dashboard';
export * from './performance';
export * from './reports';
export * from './reportNotifications';
export * from './configuredTypes';
export * from './files';
export * from './deployments';
export * from './rollouts';
export * from './hookups';

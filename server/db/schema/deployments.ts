// Packages and deployments (docs/deployments.md): the packages operators upload (a declared resource,
// resources/deploymentPackage.ts: property names equal its field names), deployments sending one
// package to machines in waves, each machine's delivery with its distribution status, and the history
// of the versions machines run. Everything that must hold across server instances lives here.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { rvm } from './fleet';
import { uploadedFile } from './files';
import { licenseAccount, sysUser } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const user = (name: string) => integer(name).references(() => sysUser.id, { onDelete: 'set null' });

/** A package: one resource (software, configuration, AI model …) for machines of its adapted models. */
export const deploymentPackage = pgTable(
  'deployment_package',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: integer('license_account_id')
      .notNull()
      .references(() => licenseAccount.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 64 }).notNull(),
    resourceType: varchar('resource_type', { length: 16 }).notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    /** Machine models (`rvm.term_type`), comma-separated. */
    adaptedModels: varchar('adapted_models', { length: 500 }).notNull(),
    activationTime: at('activation_time'),
    /** The uploaded file (docs/files.md); null until the bytes are stored (uploadStatus `notUploaded`). */
    file: integer('file_id').references(() => uploadedFile.id),
    description: varchar('description', { length: 500 }),
    creator: user('creator_id'),
    createTime: at('create_time').notNull().defaultNow(),
    lastEditor: user('last_editor_id'),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deployment_package_account_name_uq').on(t.licenseAccountId, t.name),
    index('deployment_package_account_type_idx').on(t.licenseAccountId, t.resourceType, t.createTime),
    index('deployment_package_account_created_idx').on(t.licenseAccountId, t.createTime),
  ],
);

/**
 * One package sent to a set of machines in waves. Status: awaitingApproval, running, paused, completed,
 * cancelled. Targets of wave <= `currentWave` may be delivered while the deployment is running.
 */
export const deployment = pgTable(
  'deployment',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: integer('license_account_id').notNull(),
    // A package a deployment names cannot be deleted (5002).
    packageId: integer('package_id')
      .notNull()
      .references(() => deploymentPackage.id, { onDelete: 'restrict' }),
    /** The request's selection (machineIds, fleetIds, models, savedFilterId), as sent. */
    targets: jsonb('targets').notNull(),
    waves: jsonb('waves').notNull(),
    successThreshold: smallint('success_threshold').notNull().default(90),
    errorThreshold: smallint('error_threshold').notNull().default(10),
    gate: jsonb('gate'),
    requiresApproval: boolean('requires_approval').notNull().default(false),
    approvedBy: integer('approved_by'),
    approvedTime: at('approved_time'),
    status: varchar('status', { length: 24 }).notNull().default('running'),
    pauseReason: jsonb('pause_reason'),
    currentWave: smallint('current_wave').notNull().default(0),
    answerWithinHours: smallint('answer_within_hours').notNull().default(24),
    expiresTime: at('expires_time').notNull(),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }),
    createdTime: at('created_time').notNull().defaultNow(),
    updatedTime: at('updated_time').notNull().defaultNow(),
  },
  (t) => [
    index('deployment_account_created_idx').on(t.licenseAccountId, t.createdTime),
    index('deployment_package_idx').on(t.packageId),
    // The job reads the deployments still moving: a small index.
    index('deployment_active_idx')
      .on(t.status)
      .where(sql`${t.status} in ('running', 'paused', 'awaitingApproval')`),
  ],
);

/**
 * One machine's delivery of a deployment; its id is the protocol's `deployId`. Status: toBeIssued, issued,
 * inProcess, applied, applyFailed, receiveFailed, noFeedback, taskOverdue, voided (docs/deployments.md).
 */
export const deploymentTarget = pgTable(
  'deployment_target',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    deploymentId: integer('deployment_id')
      .notNull()
      .references(() => deployment.id, { onDelete: 'cascade' }),
    licenseAccountId: integer('license_account_id').notNull(),
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    wave: smallint('wave').notNull(),
    status: varchar('status', { length: 24 }).notNull().default('toBeIssued'),
    /** The machine's reason (a failure), or why the server ended it (deadline, cancelled). */
    statusReason: varchar('status_reason', { length: 200 }),
    attempts: smallint('attempts').notNull().default(0),
    issuedTime: at('issued_time'),
    receivedTime: at('received_time'),
    finishedTime: at('finished_time'),
    reportedVersion: varchar('reported_version', { length: 32 }),
    updatedTime: at('updated_time').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deployment_target_deployment_rvm_uq').on(t.deploymentId, t.rvmId),
    // with the wave: the detail's count of started waves' targets waiting for their machine is one range of it
    index('deployment_target_deployment_status_idx').on(t.deploymentId, t.status, t.wave),
    index('deployment_target_rvm_idx').on(t.rvmId, t.id),
    // Deliveries waiting for their machine (sent after its hello) stay a small index.
    index('deployment_target_pending_idx')
      .on(t.rvmId)
      .where(sql`${t.status} = 'toBeIssued'`),
  ],
);

/**
 * A deployment's targets counted per wave and status, append-only (docs/deployments.md "Progress counts"):
 * statement triggers on deployment_target add one delta row per (wave, status) a statement changed
 * (migration 0040); the sum of a deployment's rows is its count. The rollout job folds them under the
 * deployment's row lock. Appending, never updating shared rows, so concurrent reports never wait for or
 * deadlock on each other; the status screen reads a few rows instead of every target.
 */
export const deploymentTargetTally = pgTable(
  'deployment_target_tally',
  {
    deploymentId: integer('deployment_id')
      .notNull()
      .references(() => deployment.id, { onDelete: 'cascade' }),
    wave: smallint('wave').notNull(),
    status: varchar('status', { length: 24 }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [index('deployment_target_tally_deployment_idx').on(t.deploymentId)],
);

/** Every change of a version a machine runs: from its `hello` or from an applied delivery. */
export const rvmVersionHistory = pgTable(
  'rvm_version_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    licenseAccountId: integer('license_account_id').notNull(),
    resourceType: varchar('resource_type', { length: 16 }).notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    previousVersion: varchar('previous_version', { length: 32 }),
    /** `hello` or `deployment`. */
    source: varchar('source', { length: 16 }).notNull(),
    deploymentTargetId: bigint('deployment_target_id', { mode: 'number' }).references(() => deploymentTarget.id, { onDelete: 'set null' }),
    changedTime: at('changed_time').notNull().defaultNow(),
  },
  (t) => [index('rvm_version_history_rvm_idx').on(t.rvmId, t.changedTime), index('rvm_version_history_account_type_idx').on(t.licenseAccountId, t.resourceType, t.rvmId)],
);

/**
 * Keys the server signs with, shared by every instance (a URL signed by one is checked by another): made
 * at random on first use (server/deployments/signing.ts), never sent anywhere.
 */
export const serverSecret = pgTable('server_secret', {
  name: varchar('name', { length: 64 }).primaryKey(),
  secret: varchar('secret', { length: 128 }).notNull(),
  createdTime: at('created_time').notNull().defaultNow(),
});

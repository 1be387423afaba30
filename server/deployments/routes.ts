// The deployment routes (docs/deployments.md "Deployments"): preview and create, the detail with its
// progress, the targets, and the controls. The list and its export are the generic engine's
// (resources/deployment.ts). Every call sees the caller's license account only: another account's
// deployment answers 2003, its package 8100, its machines 6001. The rollout job is registered here.
import type { FastifyBaseLogger, FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import { DEPLOYMENT_LIMITS } from '../../resources/deployment';
import { callerOf } from '../auth/guard';
import { deliverInBackground } from '../commands/create';
import { accountOf, fleetRoute, PAGE_PROPERTIES, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { Nullable, RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { controlDeployment, type Control } from './control';
import { createDeployment, previewDeployment } from './create';
import { readDeployment, readTargets } from './detail';
import { applyDeliveryDeadlines } from './delivery';
import { expireUnapproved } from './expiry';
import { DEPLOYMENTS_JOB, onlineDeliverable, ROLLOUT_EVERY_MS, runRollout } from './rollout';
import { detailSchema, previewSchema, targetPageSchema } from './schemas';

export const DEPLOYMENT_PERMISSIONS = {
  page: 'deployment:page',
  add: 'deployment:add',
  control: 'deployment:control',
  approve: 'deployment:approve',
} as const;

type JsonSchema = Record<string, unknown>;
const route = <Schema extends FastifySchema>(summary: string, permission: string, schema: Schema, data: JsonSchema = {}) =>
  fleetRoute('deployment', summary, [permission], schema, data);

const ID_PARAMS = Type.Object({ id: RowId() });

const TARGETS = StrictObject(
  {
    machineIds: Type.Optional(Type.Array(RowId(), { minItems: 1, maxItems: DEPLOYMENT_LIMITS.maxMachineIds })),
    fleetIds: Type.Optional(Type.Array(RowId(), { minItems: 1, maxItems: DEPLOYMENT_LIMITS.maxFleetIds, description: 'Each fleet with its sub-fleets' })),
    models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: DEPLOYMENT_LIMITS.maxModels })),
    savedFilterId: Type.Optional(RowId({ description: 'A saved filter of the machine list' })),
  },
  { description: "The union of what is given, within the caller's license account" },
);

const WAVES = {
  waves: Type.Optional(
    Type.Array(Type.Number({ exclusiveMinimum: 0, maximum: 100 }), {
      minItems: 1,
      maxItems: DEPLOYMENT_LIMITS.maxWaves,
      description: 'Cumulative percentages of the targets, rising, ending at 100 (default [1, 10, 50, 100])',
    }),
  ),
  waveSizes: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: DEPLOYMENT_LIMITS.maxMachineIds }), {
      minItems: 1,
      maxItems: DEPLOYMENT_LIMITS.maxWaves,
      description: 'Machines per wave; the machines left after them form a last wave',
    }),
  ),
};

const GATE = StrictObject(
  {
    windowMinutes: Type.Integer({ minimum: 1, maximum: DEPLOYMENT_LIMITS.maxWindowMinutes }),
    maxRejectRateIncrease: Type.Number({ minimum: 0, maximum: 100, description: 'Percentage points' }),
    maxSessionsDrop: Type.Number({ minimum: 0, maximum: 100, description: "Percent of the others' sessions per machine-hour" }),
  },
  { description: 'The business gate (docs/deployments.md)' },
);
const THRESHOLDS = {
  successThreshold: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '% of a wave applied before the next starts (default 90)' })),
  errorThreshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: '% of started targets failed that pauses the rollout (default 10)' })),
  gate: Type.Optional(Nullable(GATE)),
};

const PREVIEW_BODY = StrictObject({ packageId: RowId(), targets: TARGETS, ...WAVES });
const CREATE_BODY = StrictObject({
  packageId: RowId(),
  targets: TARGETS,
  ...WAVES,
  ...THRESHOLDS,
  requiresApproval: Type.Optional(Type.Boolean({ description: 'A second user with deployment:approve must approve before anything is sent' })),
  answerWithinHours: Type.Optional(Type.Integer({ minimum: 1, maximum: DEPLOYMENT_LIMITS.maxAnswerWithinHours })),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: DEPLOYMENT_LIMITS.maxExpiresInDays })),
});

const TARGETS_BODY = StrictObject({
  ...PAGE_PROPERTIES,
  status: Type.Optional(Type.Array(StringEnum(DELIVERY_STATUSES), { maxItems: DELIVERY_STATUSES.length })),
  wave: Type.Optional(Type.Integer({ minimum: 1, maximum: DEPLOYMENT_LIMITS.maxWaves + 1 })),
  termNoLike: Type.Optional(Type.String({ maxLength: 32 })),
});

const RESUME_BODY = StrictObject(THRESHOLDS, { description: 'Optionally changed thresholds or gate (gate null removes it)' });

export const registerDeploymentRoutes = (app: TypedApp, services: Services) => {
  const { db, models } = services;
  // Targets that just became deliverable go to their machines online at once, in the background (the
  // gateway's own job would send them within 10 s; a machine offline gets them after its hello). The
  // machines are known before the answer, so settleDeliveries awaits their sending; a failure only
  // leaves the targets to the gateway's job.
  const deliver = async (id: number, log: FastifyBaseLogger) => {
    try {
      void deliverInBackground(services, await onlineDeliverable(db, id), log);
    } catch (error) {
      log.warn({ err: error, deploymentId: id }, 'deployment delivery failed');
    }
  };

  // A deployment that starts or goes on is sent at once and checked within a second (the gate's first figures, a wave
  // already done), not at the job's next tick.
  const started = async (id: number, log: FastifyBaseLogger) => {
    await deliver(id, log);
    services.jobs.soon(DEPLOYMENTS_JOB);
  };

  services.jobs.add({
    name: DEPLOYMENTS_JOB,
    everyMs: ROLLOUT_EVERY_MS,
    run: (now) =>
      runRollout(db, now, {
        expireUnapproved: (at) => expireUnapproved(db, at),
        applyDeadlines: (at) => applyDeliveryDeadlines(db, at),
        deliver: (id) => deliver(id, app.log),
        log: app.log,
      }),
  });

  app.post(
    '/deployment/preview',
    route(
      'What a deployment would target: how many machines, the first 100, and each excluded machine with its reason (at most 1000 listed)',
      DEPLOYMENT_PERMISSIONS.add,
      { body: PREVIEW_BODY },
      previewSchema,
    ),
    async (request) => {
      const caller = callerOf(request);
      return ok(request, await previewDeployment(db, models, caller, accountOf(caller), request.body));
    },
  );

  app.post(
    '/deployment',
    route(
      'Create a deployment: 8100 the package is missing or not uploaded, 8200 every machine already has it or is getting it, 8203 no machine can receive it',
      DEPLOYMENT_PERMISSIONS.add,
      { body: CREATE_BODY },
      detailSchema,
    ),
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const created = await createDeployment(db, models, caller, account, request.body, { singleSession: services.database.kind === 'pglite' });
      if (created.running) await started(created.id, request.log);
      return ok(request, await readDeployment(db, account, created.id));
    },
  );

  app.get(
    '/deployment/:id',
    route(
      "A deployment: its progress (per status, per wave), thresholds, the gate's last figures and the pause reason",
      DEPLOYMENT_PERMISSIONS.page,
      { params: ID_PARAMS },
      detailSchema,
    ),
    async (request) => ok(request, await readDeployment(db, accountOf(callerOf(request)), request.params.id)),
  );

  app.post(
    '/deployment/:id/targets',
    route(
      "A deployment's targets, paged in machine order, filtered by status, wave and machine number",
      DEPLOYMENT_PERMISSIONS.page,
      { params: ID_PARAMS, body: TARGETS_BODY },
      targetPageSchema,
    ),
    async (request) => ok(request, await readTargets(db, accountOf(callerOf(request)), request.params.id, withPaging(request.body))),
  );

  const controlRoute = (control: Control, permission: string, summary: string) =>
    app.post(`/deployment/:id/${control}`, route(summary, permission, { params: ID_PARAMS }, detailSchema), async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const outcome = await controlDeployment(db, caller, account, request.params.id, control);
      if (outcome.deliverable) await started(request.params.id, request.log);
      return ok(request, await readDeployment(db, account, request.params.id));
    });

  controlRoute('pause', DEPLOYMENT_PERMISSIONS.control, 'Pause a running deployment (8202 in another status)');
  controlRoute('cancel', DEPLOYMENT_PERMISSIONS.control, 'Cancel a deployment: its unfinished targets become voided (8202 when it already ended)');
  controlRoute('retryFailed', DEPLOYMENT_PERMISSIONS.control, 'Send the failed targets again (back to toBeIssued, attempts kept); a completed deployment runs again');
  controlRoute('approve', DEPLOYMENT_PERMISSIONS.approve, 'Approve a deployment awaiting approval: 8201 for its creator; wave 1 starts');

  app.post(
    '/deployment/:id/resume',
    {
      ...route(
        'Resume a paused deployment, optionally with changed thresholds or gate; a new gate window starts (8202 when not paused)',
        DEPLOYMENT_PERMISSIONS.control,
        { params: ID_PARAMS, body: RESUME_BODY },
        detailSchema,
      ),
      // the body is optional: none changes nothing
      preValidation: async (request: { body: unknown }) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const outcome = await controlDeployment(db, caller, account, request.params.id, 'resume', request.body);
      if (outcome.deliverable) await started(request.params.id, request.log);
      return ok(request, await readDeployment(db, account, request.params.id));
    },
  );
};

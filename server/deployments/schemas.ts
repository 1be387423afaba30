// Answer schemas of the deployment routes (OpenAPI, and what the serializer keeps): the detail, the
// preview and a page of targets. Stored JSON (the selection, the gate, the pause reason and the gate's
// figures) is answered as it is.
import { DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import { DEPLOYMENT_STATUSES, EXCLUSION_REASONS } from '../../resources/deployment';

type JsonSchema = Record<string, unknown>;

const integer = { type: 'integer' } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;
const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const time = { type: ['string', 'null'], format: 'date-time' } as const;
const anyObject = (description: string): JsonSchema => ({ type: ['object', 'null'], additionalProperties: true, description });
const statusCounts: JsonSchema = { type: 'object', properties: Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, integer])) };

export const detailSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: integer,
    package: { type: 'object', properties: { id: integer, name: text, version: text, resourceType: text } },
    status: { type: 'string', enum: [...DEPLOYMENT_STATUSES] },
    pauseReason: anyObject(
      "Why it is paused: { kind: 'operator', by } | { kind: 'errorThreshold', failed, started, rate, threshold } | { kind: 'gate', rule, updated, others, limit, … }",
    ),
    targets: anyObject('The selection as sent'),
    wavePlan: { type: 'object', properties: { percentages: { type: ['array', 'null'], items: { type: 'number' } }, sizes: { type: ['array', 'null'], items: integer } } },
    currentWave: { ...integer, description: '0 while awaiting approval' },
    waveCount: integer,
    total: integer,
    counts: statusCounts,
    applied: integer,
    failed: integer,
    finished: integer,
    waves: {
      type: 'array',
      items: {
        type: 'object',
        properties: { wave: integer, size: integer, counts: statusCounts, applied: integer, failed: integer, finished: integer, started: { type: 'boolean' } },
      },
    },
    offlineWaiting: { ...integer, description: 'Targets of the started waves still to be issued because their machine is offline' },
    successThreshold: integer,
    errorThreshold: integer,
    gate: anyObject('{ windowMinutes, maxRejectRateIncrease, maxSessionsDrop }, or null without a gate'),
    gateSince: time,
    gateResult: anyObject("The gate's last check: { verdict: pass|fail|notEnoughData, rule, updated, others, rejectRateIncrease, sessionsDrop, windowFrom, windowTo }"),
    gateCheckedTime: time,
    requiresApproval: { type: 'boolean' },
    approvedBy: nullableInteger,
    approvedByName: nullableText,
    approvedTime: time,
    answerWithinHours: integer,
    expiresTime: time,
    createdBy: nullableInteger,
    createdByName: nullableText,
    createdTime: time,
    updatedTime: time,
  },
};

const machine = { id: integer, termNo: text, termType: text, fleetId: integer };

export const previewSchema: JsonSchema = {
  type: 'object',
  properties: {
    selected: { ...integer, description: 'Machines the selection holds' },
    targeted: { ...integer, description: 'Machines a deployment would target' },
    machines: { type: 'array', items: { type: 'object', properties: machine }, description: 'The first 100 targeted' },
    excludedCounts: { type: 'object', properties: Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, integer])) },
    excluded: { type: 'array', items: { type: 'object', properties: { ...machine, reason: { type: 'string', enum: [...EXCLUSION_REASONS] } } }, description: 'At most 1000' },
    waves: { type: 'array', items: integer, description: 'Machines per wave' },
  },
};

export const targetPageSchema: JsonSchema = {
  type: 'object',
  properties: {
    list: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { ...integer, description: "The delivery (the protocol's deployId)" },
          rvmId: integer,
          termNo: text,
          termType: text,
          fleetId: integer,
          online: { type: 'boolean' },
          reachable: { type: 'boolean', description: 'online and heard by the gateway: a delivery can go out now' },
          wave: integer,
          status: { type: 'string', enum: [...DELIVERY_STATUSES] },
          statusReason: nullableText,
          attempts: integer,
          reportedVersion: nullableText,
          issuedTime: time,
          receivedTime: time,
          finishedTime: time,
          updatedTime: time,
        },
      },
    },
    total: integer,
    pageNum: integer,
    pageSize: integer,
  },
};

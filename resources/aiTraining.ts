// AI training (docs/ai-training.md): the statuses of a training task, its types, the label name rule and
// the limits the console and the server share.

/** docs/ai-training.md#task-statuses */
export const AI_TASK_STATUSES = [
  'inPreparation',
  'toBeSent',
  'sending',
  'sent',
  'queuing',
  'inProgress',
  'canceling',
  'canceled',
  'executionFailed',
  'executionSucceeded',
] as const;
export type AiTaskStatus = (typeof AI_TASK_STATUSES)[number];

/** A task in one of these is not over: at most one per license account (9250, 9290 while canceling). */
export const AI_TASK_ACTIVE: readonly AiTaskStatus[] = ['inPreparation', 'toBeSent', 'sending', 'sent', 'queuing', 'inProgress', 'canceling'];
/** A task in one of these can be cancelled. */
export const AI_TASK_CANCELLABLE: readonly AiTaskStatus[] = ['inPreparation', 'toBeSent', 'sending', 'sent', 'queuing', 'inProgress'];

export const AI_TASK_TYPES = ['classification', 'motion'] as const;
export type AiTaskType = (typeof AI_TASK_TYPES)[number];

/** docs/ai-training.md#labels: digits, letters and underscores only. */
export const LABEL_NAME = /^[A-Za-z0-9_]{1,32}$/;
export const isLabelName = (name: string) => LABEL_NAME.test(name);

/** The labels a new pool starts with (the item types machines tell apart). */
export const DEFAULT_LABELS = ['bottle', 'can', 'glass', 'cup', 'flat', 'others'] as const;

/** A model name: what a package name may be. */
export const MODEL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Get samples: at most this many pictures per run. */
export const MAX_SAMPLES_PER_RUN = 5000;
/** Training: at least this many labelled samples of at least two labels (9200 otherwise). */
export const MIN_TRAINING_SAMPLES = 20;

/** Image classification: a prediction below this confidence counts as "low confidence" (docs/ai-training.md#image-classification). */
export const LOW_CONFIDENCE = 0.6;
/** Image classification: samples a model is run on per request (the console asks again for the rest). */
export const CLASSIFY_CHUNK = 1000;
/** Image classification: what the review shows. */
export const CLASSIFY_SHOWN = ['all', 'wrong', 'lowConfidence'] as const;

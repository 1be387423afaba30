// The item recogniser of a simulated machine (docs/ai-training.md#simulated-machines-and-trained-models): which
// share of the classification rejects (reasons 3 "classified as others", 4 "low confidence", 5 "does not match
// the barcode") it makes, from the AI model package it runs. A model a training task made
// (server/ai/classifier.ts, format `rvm-ai-classifier`) carries its held-out accuracy; the machine makes
// classification mistakes in proportion to that model's error, against the factory recogniser's
// FACTORY_ACCURACY: a 90 % model halves them, a 70 % one makes half as many again. Running the network on every
// drawn picture would cost a machine a convolution per item; the measured accuracy says the same on average.
import type { Random } from '../seed/random';
import { WeightedTable } from '../seed/random';
import type { MachineModel } from '../seed/vocabulary';

/** The reject reasons a better picture classifier avoids. */
export const CLASSIFICATION_REASONS: ReadonlySet<number> = new Set([3, 4, 5]);
/** The accuracy the factory recogniser is taken to have: the seed's reject profiles are its mistakes. */
export const FACTORY_ACCURACY = 0.8;
/** A model can at most make this many times the factory's classification rejects. */
const MAX_FACTOR = 4;

export interface Recogniser {
  /** The AI package's model name and held-out accuracy; null: the factory recogniser. */
  model: string | null;
  accuracy: number | null;
  /** Classification rejects as a multiple of the factory's (1: factory). */
  factor: number;
}

export const FACTORY_RECOGNISER: Recogniser = { model: null, accuracy: null, factor: 1 };

/** docs/ai-training.md#simulated-machines-and-trained-models */
export const classificationFactor = (accuracy: number) => Math.min(MAX_FACTOR, Math.max(0, (1 - accuracy) / (1 - FACTORY_ACCURACY)));

/**
 * The recogniser an AI package's content sets up: a trained classifier file with its held-out accuracy; null for
 * any other content (an AI package from elsewhere: the machine keeps the recogniser it has).
 */
export const recogniserOf = (content: Buffer): Recogniser | null => {
  let parsed: { format?: unknown; accuracy?: unknown; taskId?: unknown };
  try {
    parsed = JSON.parse(content.toString('utf8')) as typeof parsed;
  } catch {
    return null;
  }
  if (parsed?.format !== 'rvm-ai-classifier' || typeof parsed.accuracy !== 'number' || !(parsed.accuracy >= 0 && parsed.accuracy <= 1)) return null;
  return { model: typeof parsed.taskId === 'number' ? `task ${parsed.taskId}` : 'trained', accuracy: parsed.accuracy, factor: classificationFactor(parsed.accuracy) };
};

/**
 * A drawn quality reject through the recogniser: a classification reject stays with the recogniser's factor
 * as its chance (below 1), any other reason stays. Draws nothing at the factory recogniser.
 */
export const throughRecogniser = (random: Random, recogniser: Recogniser, reason: number): number | null =>
  recogniser.factor < 1 && CLASSIFICATION_REASONS.has(reason) && !random.chance(recogniser.factor) ? null : reason;

/**
 * The extra classification reject of a recogniser worse than the factory's on an item the factory would take:
 * the factory's classification rejects times (factor - 1), reasons in the model's proportions. Draws nothing
 * at factor 1 or below.
 */
export const extraClassificationReject = (random: Random, recogniser: Recogniser, model: MachineModel): number | null => {
  if (recogniser.factor <= 1) return null;
  const entries = model.rejectProfile.filter(([reason]) => CLASSIFICATION_REASONS.has(reason));
  const total = model.rejectProfile.reduce((sum, [, weight]) => sum + weight, 0);
  const share = entries.reduce((sum, [, weight]) => sum + weight, 0) / total;
  if (!entries.length || !random.chance(model.rejectRate * share * (recogniser.factor - 1))) return null;
  return new WeightedTable(entries).pick(random);
};

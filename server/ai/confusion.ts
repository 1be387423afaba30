// The confusion matrix of Image classification (docs/ai-training.md#image-classification): labelled samples
// counted by their true label (rows) and the label a model predicted (columns), with each label's precision
// (of the samples predicted as it, the share that are it) and recall (of the samples that are it, the share
// predicted as it). Pure: the counts come from the database (classify.ts), the arithmetic is here.

export interface PairCount {
  /** The sample's label (what it is). */
  actual: string;
  /** The model's label for it. */
  predicted: string;
  count: number;
}

export interface LabelFigures {
  label: string;
  /** Samples that are this label (the row's sum). */
  support: number;
  /** Samples the model called this label (the column's sum). */
  predicted: number;
  /** null when the model called nothing this label. */
  precision: number | null;
  /** null when no sample is this label. */
  recall: number | null;
}

export interface Confusion {
  labels: string[];
  /** matrix[row: actual][column: predicted] */
  matrix: number[][];
  perLabel: LabelFigures[];
  total: number;
  correct: number;
  accuracy: number | null;
}

/**
 * The matrix over `order` (the model's labels, then the account's) plus any label met in `pairs` but in
 * neither, so no count is lost; labels no sample has and the model never predicts are left out.
 */
export const confusionOf = (pairs: readonly PairCount[], order: readonly string[]): Confusion => {
  const seen = new Set(pairs.flatMap((pair) => (pair.count > 0 ? [pair.actual, pair.predicted] : [])));
  const labels = [...new Set([...order, ...pairs.flatMap((pair) => [pair.actual, pair.predicted])])].filter((label) => seen.has(label));
  const index = new Map(labels.map((label, at) => [label, at]));
  const matrix = labels.map(() => labels.map(() => 0));
  for (const pair of pairs) if (pair.count > 0) matrix[index.get(pair.actual)!][index.get(pair.predicted)!] += pair.count;
  let total = 0;
  let correct = 0;
  const perLabel = labels.map((label, at) => {
    const support = matrix[at].reduce((sum, count) => sum + count, 0);
    const predicted = matrix.reduce((sum, row) => sum + row[at], 0);
    const hits = matrix[at][at];
    total += support;
    correct += hits;
    return { label, support, predicted, precision: predicted ? hits / predicted : null, recall: support ? hits / support : null };
  });
  return { labels, matrix, perLabel, total, correct, accuracy: total ? correct / total : null };
};

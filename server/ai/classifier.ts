// The image classifier a training task trains (docs/ai-training.md "Trainer"): TensorFlow.js on its WebAssembly
// backend (installs from the npm registry, downloads nothing at install or run time). Pictures are read at 32×32
// (a quarter of the pixels of the 64×64 uploads: four times less work per epoch, and the silhouettes stay
// recognisable); a small convolutional network with batch normalisation, trained on pictures turned and mirrored
// (an item lies any way up in the chamber) with Adam and a cosine learning rate, held-out evaluation.
import '@tensorflow/tfjs-backend-wasm';
// tfjs-core's Node bundle registers no gradients; the layers bundle registers all of them as it loads
import '@tensorflow/tfjs-layers';
import * as tf from '@tensorflow/tfjs-core';
import { INPUT_SIZE } from './pictureInput';

let ready: Promise<void> | undefined;
const ensureBackend = () => (ready ??= tf.setBackend('wasm').then(() => undefined));

export interface LabelledInput {
  input: Float32Array;
  /** Index into the task's labels. */
  label: number;
}

export interface EpochReport {
  epoch: number;
  epochs: number;
  loss: number;
  accuracy: number;
  seconds: number;
}

export interface TrainSettings {
  labels: readonly string[];
  epochs: number;
  /** Share of the samples kept out of training to measure the model. */
  holdOut: number;
  batchSize?: number;
  /** Stops after the epoch where it returns true (a cancelled task). */
  shouldStop?: () => boolean | Promise<boolean>;
  onEpoch?: (report: EpochReport) => void | Promise<void>;
  seed?: number;
}

export interface TrainOutcome {
  stopped: boolean;
  epochs: number;
  /** Held-out accuracy (0..1) and counts per [actual][predicted] label. */
  accuracy: number;
  confusion: number[][];
  trainCount: number;
  testCount: number;
  seconds: number;
  weights: ClassifierWeights;
}

/**
 * The network: each picture standardised (its own mean and spread: lighting varies), three 3×3 convolutions each
 * normalised over its batch, with 2×2 max pools between them, the last one's mean and maximum over the picture
 * (where the item lies does not matter), a hidden dense layer, then one to the labels. Measured in
 * docs/benchmarks.md "AI training".
 */
const FILTERS = [16, 32, 64] as const;
const HIDDEN = 64;
/** Adam's step at the start; it falls along a half cosine to a tenth of it by the last epoch. */
const LEARNING_RATE = 0.005;
/** How much of each batch's mean and variance the running ones (used to classify) take. */
const MOMENTUM = 0.1;
const EPSILON = 1e-5;

export interface ClassifierWeights {
  [name: string]: tf.Variable;
}

/** Running statistics are weights of the file but not trained: the optimiser leaves them out. */
const isRunningStatistic = (name: string) => name.startsWith('runningMean') || name.startsWith('runningVariance');

const initialWeights = (classes: number, seed: number): ClassifierWeights => {
  const weights: ClassifierWeights = {};
  let channels = 3;
  FILTERS.forEach((filters, index) => {
    const fanIn = 9 * channels;
    weights[`conv${index}`] = tf.variable(tf.randomNormal([fanIn, filters], 0, Math.sqrt(2 / fanIn), 'float32', seed + index));
    weights[`bias${index}`] = tf.variable(tf.zeros([filters]));
    weights[`scale${index}`] = tf.variable(tf.ones([filters]));
    weights[`runningMean${index}`] = tf.variable(tf.zeros([filters]), false);
    weights[`runningVariance${index}`] = tf.variable(tf.ones([filters]), false);
    channels = filters;
  });
  // the mean and the maximum of each of the last convolution's filters
  const flat = 2 * channels;
  weights.hidden = tf.variable(tf.randomNormal([flat, HIDDEN], 0, Math.sqrt(2 / flat), 'float32', seed + 11));
  weights.hiddenBias = tf.variable(tf.zeros([HIDDEN]));
  weights.dense = tf.variable(tf.randomNormal([HIDDEN, classes], 0, Math.sqrt(1 / HIDDEN), 'float32', seed + 10));
  weights.denseBias = tf.variable(tf.zeros([classes]));
  return weights;
};

/** A training batch's mean and variance per normalised layer, for the running statistics after the step. */
type BatchStatistics = Array<{ index: number; mean: tf.Tensor; variance: tf.Tensor }>;

/**
 * A 3×3 convolution as one matrix product over the nine shifted copies of the input (im2col): the
 * WebAssembly backend multiplies matrices fast and has every gradient this needs, not a 2-D convolution's.
 * Normalised with the batch's statistics while training (kept in `statistics`), with the running ones after.
 */
const conv3x3 = (input: tf.Tensor4D, weights: ClassifierWeights, index: number, statistics?: BatchStatistics): tf.Tensor4D => {
  const kernel = weights[`conv${index}`];
  const [count, height, width, channels] = input.shape;
  const padded = tf.pad(input, [
    [0, 0],
    [1, 1],
    [1, 1],
    [0, 0],
  ]);
  const shifted: tf.Tensor4D[] = [];
  for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) shifted.push(tf.slice(padded, [0, dy, dx, 0], [count, height, width, channels]));
  const columns = tf.reshape(tf.concat(shifted, 3), [count * height * width, 9 * channels]);
  let output = tf.matMul(columns, kernel);
  // a model file of version 1 has no normalisation
  if (weights[`scale${index}`]) {
    let mean: tf.Tensor = weights[`runningMean${index}`];
    let variance: tf.Tensor = weights[`runningVariance${index}`];
    if (statistics) {
      ({ mean, variance } = tf.moments(output, 0));
      statistics.push({ index, mean: tf.keep(mean), variance: tf.keep(variance) });
    }
    output = tf.mul(tf.div(tf.sub(output, mean), tf.sqrt(tf.add(variance, EPSILON))), weights[`scale${index}`]);
  }
  return tf.reshape(tf.relu(tf.add(output, weights[`bias${index}`])), [count, height, width, kernel.shape[1]!]);
};

/** Each picture less its own mean, over its own spread (at least 0.05: a flat picture stays flat). */
const standardised = (input: tf.Tensor4D): tf.Tensor4D => {
  const { mean, variance } = tf.moments(input, [1, 2, 3], true);
  return tf.div(tf.sub(input, mean), tf.maximum(tf.sqrt(variance), 0.05));
};

/**
 * Logits for a batch of inputs [N, INPUT_SIZE, INPUT_SIZE, 3]; `statistics` while training. A model file of
 * version 1 (no hidden layer) was trained on the pictures as they are and flattens its last pooled layer.
 */
const forward = (weights: ClassifierWeights, input: tf.Tensor4D, statistics?: BatchStatistics): tf.Tensor2D => {
  const version2 = Boolean(weights.hidden);
  let x = version2 ? standardised(input) : input;
  for (let index = 0; weights[`conv${index}`]; index++) {
    x = conv3x3(x, weights, index, statistics);
    if (!version2 || weights[`conv${index + 1}`]) x = tf.maxPool(x, 2, 2, 'valid');
  }
  if (!version2) return tf.add(tf.matMul(tf.reshape(x, [x.shape[0], -1]), weights.dense), weights.denseBias);
  const pooled = tf.concat([tf.mean(x, [1, 2]), tf.max(x, [1, 2])], 1);
  const hidden = tf.relu(tf.add(tf.matMul(pooled, weights.hidden), weights.hiddenBias));
  return tf.add(tf.matMul(hidden, weights.dense), weights.denseBias);
};

/** Moves the running statistics towards a training batch's, and lets the batch's go. */
const updateRunningStatistics = (weights: ClassifierWeights, statistics: BatchStatistics) => {
  for (const { index, mean, variance } of statistics.splice(0)) {
    for (const [name, batch] of [
      [`runningMean${index}`, mean],
      [`runningVariance${index}`, variance],
    ] as const) {
      weights[name].assign(tf.add(tf.mul(weights[name], 1 - MOMENTUM), tf.mul(batch, MOMENTUM)));
      batch.dispose();
    }
  }
};

/**
 * One of the eight ways a square picture can lie (turned by quarter turns, mirrored): bit 0 mirrors
 * left-right, bit 1 top-bottom, bit 2 swaps the axes. 0 is the picture as it is.
 */
export const turned = (input: Float32Array, way: number): Float32Array => {
  if (way === 0) return input;
  const side = INPUT_SIZE;
  const output = new Float32Array(input.length);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      let fromX = way & 1 ? side - 1 - x : x;
      let fromY = way & 2 ? side - 1 - y : y;
      if (way & 4) [fromX, fromY] = [fromY, fromX];
      const from = (fromY * side + fromX) * 3;
      const to = (y * side + x) * 3;
      output[to] = input[from];
      output[to + 1] = input[from + 1];
      output[to + 2] = input[from + 2];
    }
  }
  return output;
};
const WAYS = 8;

/** The next state of a 32-bit LCG: deterministic numbers for the split, the order and the ways. */
const nextState = (state: number) => (Math.imul(state, 1664525) + 1013904223) >>> 0;

/** A deterministic shuffle (the split must not depend on the order the database returned). */
const shuffled = <T>(items: readonly T[], seed: number) => {
  const copy = [...items];
  let state = seed >>> 0 || 1;
  for (let index = copy.length - 1; index > 0; index--) {
    state = nextState(state);
    // the high bits: an LCG's low bits repeat with short periods (a residue would pick the split)
    const other = Math.floor((state / 2 ** 32) * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
};

const batchTensor = (inputs: readonly Float32Array[]) => {
  const values = new Float32Array(inputs.length * INPUT_SIZE * INPUT_SIZE * 3);
  inputs.forEach((input, index) => values.set(input, index * input.length));
  return tf.tensor4d(values, [inputs.length, INPUT_SIZE, INPUT_SIZE, 3]);
};

/**
 * Predicted label index and confidence for each input: the mean of what the network says of the picture in
 * each of its eight ways (an item lies any way up; the mean is steadier than any one of them).
 */
export const predict = (weights: ClassifierWeights, inputs: readonly Float32Array[]): Array<{ label: number; confidence: number }> => {
  const rows = tf.tidy(() => {
    let sum: tf.Tensor | undefined;
    for (let way = 0; way < WAYS; way++) {
      const probabilities = tf.softmax(forward(weights, batchTensor(inputs.map((input) => turned(input, way)))));
      sum = sum ? tf.add(sum, probabilities) : probabilities;
    }
    return tf.div(sum!, WAYS).arraySync() as number[][];
  });
  return rows.map((row) => {
    const label = row.indexOf(Math.max(...row));
    return { label, confidence: row[label] };
  });
};

export const trainClassifier = async (samples: readonly LabelledInput[], settings: TrainSettings): Promise<TrainOutcome> => {
  await ensureBackend();
  const started = Date.now();
  const classes = settings.labels.length;
  const seed = settings.seed ?? 1;
  const all = shuffled(samples, seed);
  const testCount = Math.max(1, Math.round(all.length * settings.holdOut));
  const test = all.slice(0, testCount);
  const train = all.slice(testCount);
  const weights = initialWeights(classes, seed);
  const optimizer = tf.train.adam(LEARNING_RATE);
  const trained = Object.entries(weights)
    .filter(([name]) => !isRunningStatistic(name))
    .map(([, variable]) => variable);
  const statistics: BatchStatistics = [];
  // a random way for each picture of each epoch, the same for the same seed
  let wayState = seed >>> 0 || 1;
  const nextWay = () => {
    wayState = nextState(wayState);
    // the high three bits (the low ones repeat with short periods)
    return wayState >>> 29;
  };
  const batchSize = settings.batchSize ?? 32;
  let stopped = false;
  let done = 0;
  for (let epoch = 1; epoch <= settings.epochs; epoch++) {
    // Adam's public step size: read at every update
    (optimizer as unknown as { learningRate: number }).learningRate = LEARNING_RATE * (0.1 + 0.45 * (1 + Math.cos((Math.PI * (epoch - 1)) / settings.epochs)));
    const order = shuffled(train, seed + epoch);
    let lossSum = 0;
    let right = 0;
    for (let from = 0; from < order.length; from += batchSize) {
      const batch = order.slice(from, from + batchSize);
      const { loss, correct } = tf.tidy(() => {
        const x = batchTensor(batch.map((item) => turned(item.input, nextWay())));
        const labels = tf.tensor1d(
          batch.map((item) => item.label),
          'int32',
        );
        const y = tf.oneHot(labels, classes);
        let logits: tf.Tensor2D | undefined;
        const cost = optimizer.minimize(
          () => {
            // kept past the gradient's own scope for the batch's accuracy, released by the tidy around it
            logits = tf.keep(forward(weights, x, statistics));
            return tf.losses.softmaxCrossEntropy(y, logits);
          },
          true,
          trained,
        )!;
        updateRunningStatistics(weights, statistics);
        const hits = tf.sum(tf.cast(tf.equal(tf.argMax(logits!, 1), labels), 'int32'));
        const answer = { loss: cost.dataSync()[0], correct: hits.dataSync()[0] };
        logits!.dispose();
        return answer;
      });
      lossSum += loss * batch.length;
      right += correct;
      // let the event loop breathe between batches (progress writes, cancel checks)
      await new Promise((resolve) => setImmediate(resolve));
    }
    done = epoch;
    await settings.onEpoch?.({ epoch, epochs: settings.epochs, loss: lossSum / order.length, accuracy: right / order.length, seconds: (Date.now() - started) / 1000 });
    if (await settings.shouldStop?.()) {
      stopped = true;
      break;
    }
  }
  optimizer.dispose();
  const confusion = settings.labels.map(() => settings.labels.map(() => 0));
  let right = 0;
  for (let from = 0; from < test.length; from += 128) {
    const batch = test.slice(from, from + 128);
    predict(
      weights,
      batch.map((item) => item.input),
    ).forEach((guess, index) => {
      confusion[batch[index].label][guess.label]++;
      if (guess.label === batch[index].label) right++;
    });
  }
  return { stopped, epochs: done, accuracy: right / test.length, confusion, trainCount: train.length, testCount: test.length, seconds: (Date.now() - started) / 1000, weights };
};

/** The trained network as a file: its weights and what it expects (the AI package's content). */
export const serializeClassifier = (weights: ClassifierWeights, labels: readonly string[], meta: Record<string, unknown>) =>
  Buffer.from(
    JSON.stringify({
      format: 'rvm-ai-classifier',
      version: 2,
      inputSize: INPUT_SIZE,
      filters: FILTERS,
      labels,
      ...meta,
      weights: Object.fromEntries(
        Object.entries(weights).map(([name, variable]) => {
          const data = variable.dataSync() as Float32Array;
          return [name, { shape: variable.shape, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') }];
        }),
      ),
    }),
  );

/** A classifier file back as weights (for machines or a review); throws on another format. */
export const loadClassifier = async (file: Buffer): Promise<{ weights: ClassifierWeights; labels: string[] }> => {
  await ensureBackend();
  const parsed = JSON.parse(file.toString('utf8')) as { format?: string; labels: string[]; weights: Record<string, { shape: number[]; data: string }> };
  if (parsed.format !== 'rvm-ai-classifier') throw new Error('not an rvm-ai-classifier file');
  const weights: ClassifierWeights = {};
  for (const [name, { shape, data }] of Object.entries(parsed.weights)) {
    const bytes = Buffer.from(data, 'base64');
    weights[name] = tf.variable(tf.tensor(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)), shape), false);
  }
  return { weights, labels: parsed.labels };
};

export const disposeClassifier = (weights: ClassifierWeights) => Object.values(weights).forEach((variable) => variable.dispose());

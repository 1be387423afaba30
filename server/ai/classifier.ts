// The image classifier a training task trains (docs/ai-training.md "Training"): TensorFlow.js on its pure
// JavaScript CPU backend (installs from the npm registry, downloads nothing at install or run time). Pictures
// are read at 32×32 (a quarter of the pixels of the 64×64 uploads: four times less work per epoch, and the
// silhouettes stay recognisable), a small convolutional network, Adam, held-out evaluation.
import '@tensorflow/tfjs-backend-wasm';
// tfjs-core's Node bundle registers no gradients; the layers bundle registers all of them as it loads
import '@tensorflow/tfjs-layers';
import * as tf from '@tensorflow/tfjs-core';
import sharp from 'sharp';

export const INPUT_SIZE = 32;

let ready: Promise<void> | undefined;
const ensureBackend = () => (ready ??= tf.setBackend('wasm').then(() => undefined));

/** A picture file (PNG, JPEG…) as the network's input: INPUT_SIZE² RGB values in -1..1. */
export const pictureInput = async (file: Buffer): Promise<Float32Array> => {
  const raw = await sharp(file).removeAlpha().resize(INPUT_SIZE, INPUT_SIZE, { fit: 'fill' }).raw().toBuffer();
  const input = new Float32Array(raw.length);
  // centred on 0 (-1..1): plain gradient steps then move every filter weight both ways
  for (let index = 0; index < raw.length; index++) input[index] = raw[index] / 127.5 - 1;
  return input;
};

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

/** The network: three 3×3 convolutions (each followed by a 2×2 max pool), then one dense layer to the labels. */
const FILTERS = [16, 32, 32] as const;

export interface ClassifierWeights {
  [name: string]: tf.Variable;
}

const initialWeights = (classes: number, seed: number): ClassifierWeights => {
  const weights: ClassifierWeights = {};
  let channels = 3;
  FILTERS.forEach((filters, index) => {
    const fanIn = 9 * channels;
    weights[`conv${index}`] = tf.variable(tf.randomNormal([fanIn, filters], 0, Math.sqrt(2 / fanIn), 'float32', seed + index));
    weights[`bias${index}`] = tf.variable(tf.zeros([filters]));
    channels = filters;
  });
  const side = INPUT_SIZE / 2 ** FILTERS.length;
  const flat = side * side * channels;
  weights.dense = tf.variable(tf.randomNormal([flat, classes], 0, Math.sqrt(1 / flat), 'float32', seed + 10));
  weights.denseBias = tf.variable(tf.zeros([classes]));
  return weights;
};

/**
 * A 3×3 convolution as one matrix product over the nine shifted copies of the input (im2col): the
 * WebAssembly backend multiplies matrices fast and has every gradient this needs, not a 2-D convolution's.
 */
const conv3x3 = (input: tf.Tensor4D, kernel: tf.Tensor, bias: tf.Tensor): tf.Tensor4D => {
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
  const output = tf.relu(tf.add(tf.matMul(columns, kernel), bias));
  return tf.reshape(output, [count, height, width, kernel.shape[1]!]);
};

/** Logits for a batch of inputs [N, INPUT_SIZE, INPUT_SIZE, 3]. */
const forward = (weights: ClassifierWeights, input: tf.Tensor4D, training: boolean): tf.Tensor2D => {
  let x = input;
  FILTERS.forEach((_filters, index) => {
    x = tf.maxPool(conv3x3(x, weights[`conv${index}`], weights[`bias${index}`]), 2, 2, 'valid');
  });
  let flat: tf.Tensor2D = tf.reshape(x, [x.shape[0], -1]);
  if (training) flat = tf.dropout(flat, 0.25) as tf.Tensor2D;
  return tf.add(tf.matMul(flat, weights.dense), weights.denseBias);
};

/** A deterministic shuffle (the split must not depend on the order the database returned). */
const shuffled = <T>(items: readonly T[], seed: number) => {
  const copy = [...items];
  let state = seed >>> 0 || 1;
  for (let index = copy.length - 1; index > 0; index--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
};

const batchTensor = (inputs: readonly Float32Array[]) => {
  const values = new Float32Array(inputs.length * INPUT_SIZE * INPUT_SIZE * 3);
  inputs.forEach((input, index) => values.set(input, index * input.length));
  return tf.tensor4d(values, [inputs.length, INPUT_SIZE, INPUT_SIZE, 3]);
};

/** Predicted label index and confidence for each input. */
export const predict = (weights: ClassifierWeights, inputs: readonly Float32Array[]): Array<{ label: number; confidence: number }> => {
  const rows = tf.tidy(() => tf.softmax(forward(weights, batchTensor(inputs), false)).arraySync());
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
  const optimizer = tf.train.adam(0.005);
  const batchSize = settings.batchSize ?? 32;
  let stopped = false;
  let done = 0;
  for (let epoch = 1; epoch <= settings.epochs; epoch++) {
    const order = shuffled(train, seed + epoch);
    let lossSum = 0;
    let right = 0;
    for (let from = 0; from < order.length; from += batchSize) {
      const batch = order.slice(from, from + batchSize);
      const { loss, correct } = tf.tidy(() => {
        const x = batchTensor(batch.map((item) => item.input));
        const labels = tf.tensor1d(
          batch.map((item) => item.label),
          'int32',
        );
        const y = tf.oneHot(labels, classes);
        let logits: tf.Tensor2D | undefined;
        const cost = optimizer.minimize(
          () => {
            // kept past the gradient's own scope for the batch's accuracy, released by the tidy around it
            logits = tf.keep(forward(weights, x, true));
            return tf.losses.softmaxCrossEntropy(y, logits);
          },
          true,
          Object.values(weights),
        )!;
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
      version: 1,
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

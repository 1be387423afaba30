// The classifier's held-out split, its eight ways of a picture (training pictures turned and mirrored, predictions averaged over all
// eight) and its model files of version 1, without normalisation or hidden layer (docs/ai-training.md "Trainer").
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { loadClassifier, predict, serializeClassifier, trainClassifier, turned, type ClassifierWeights } from '../../server/ai/classifier';
import { INPUT_SIZE } from '../../server/ai/pictureInput';

const VALUES = INPUT_SIZE * INPUT_SIZE * 3;
/** A picture unlike any of its turns: every value its own. */
const asymmetric = () => Float32Array.from({ length: VALUES }, (_, index) => index / VALUES);
const pixel = (input: Float32Array, x: number, y: number) => input[(y * INPUT_SIZE + x) * 3];

describe('the eight ways of a picture', () => {
  it('are eight different arrangements of the same values, way 0 the picture itself', () => {
    const picture = asymmetric();
    expect(turned(picture, 0)).toBe(picture);
    const ways = Array.from({ length: 8 }, (_, way) => turned(picture, way));
    expect(new Set(ways.map((way) => way.join(','))).size).toBe(8);
    const sorted = [...picture].sort().join(',');
    for (const way of ways) expect([...way].sort().join(',')).toBe(sorted);
  });

  it('mirror, flip and swap the axes as their bits say, and a mirror twice is the picture again', () => {
    const picture = asymmetric();
    const last = INPUT_SIZE - 1;
    expect(pixel(turned(picture, 1), 0, 5)).toBe(pixel(picture, last, 5));
    expect(pixel(turned(picture, 2), 5, 0)).toBe(pixel(picture, 5, last));
    expect(pixel(turned(picture, 4), 3, 7)).toBe(pixel(picture, 7, 3));
    expect(turned(turned(picture, 1), 1)).toEqual(picture);
  });
});

describe('a model file of version 1', () => {
  it('still loads and classifies: three convolutions without normalisation, then the labels', async () => {
    await tf.setBackend('wasm');
    const labels = ['can', 'glass'];
    const weights: ClassifierWeights = {};
    let channels = 3;
    [16, 32, 32].forEach((filters, index) => {
      weights[`conv${index}`] = tf.variable(tf.randomNormal([9 * channels, filters], 0, 0.1, 'float32', index + 1));
      weights[`bias${index}`] = tf.variable(tf.zeros([filters]));
      channels = filters;
    });
    weights.dense = tf.variable(tf.randomNormal([(INPUT_SIZE / 8) ** 2 * channels, labels.length], 0, 0.1, 'float32', 9));
    weights.denseBias = tf.variable(tf.tensor1d([0, 0]));
    const file = JSON.parse(serializeClassifier(weights, labels, {}).toString('utf8')) as Record<string, unknown>;
    const model = await loadClassifier(Buffer.from(JSON.stringify({ ...file, version: 1 })));
    const [guess] = predict(model.weights, [asymmetric()]);
    expect(guess.label === 0 || guess.label === 1).toBe(true);
    expect(guess.confidence).toBeGreaterThanOrEqual(0.5);
    expect(guess.confidence).toBeLessThanOrEqual(1);
  });
});

describe('the held-out split', () => {
  it('keeps out about as many pictures of each label whatever the seed, with samples listed label after label', async () => {
    const labels = ['bottle', 'can', 'glass', 'cup', 'flat', 'others'];
    const blank = new Float32Array(VALUES);
    const samples = Array.from({ length: 1200 }, (_, index) => ({ input: blank, label: index % labels.length }));
    for (const seed of [1, 2, 3, 4]) {
      // no epoch: the outcome is the untrained network's confusion over the held-out pictures, a row per label
      const outcome = await trainClassifier(samples, { labels, epochs: 0, holdOut: 0.2, seed });
      const kept = outcome.confusion.map((row) => row.reduce((sum, count) => sum + count, 0));
      expect(kept.reduce((sum, count) => sum + count, 0)).toBe(240);
      for (const count of kept) expect(count, `seed ${seed}: ${kept.join(', ')}`).toBeGreaterThanOrEqual(25);
      for (const count of kept) expect(count, `seed ${seed}: ${kept.join(', ')}`).toBeLessThanOrEqual(55);
    }
  });
});

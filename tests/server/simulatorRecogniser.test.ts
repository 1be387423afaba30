// Simulated machines classify with the trained AI model they run (docs/ai-training.md#simulated-machines-and-trained-models,
// server/simulator/recogniser.ts), without a server: the same seeded consumers at the same machine before and
// after an AI package is applied, so every difference is the model's. A better model (held-out accuracy above
// the factory recogniser's) makes fewer classification rejects (reasons 3, 4, 5), a worse one more, and an AI
// package that is no trained model changes nothing.
import { describe, expect, it } from 'vitest';
import { VirtualMachine } from '../../server/simulator/machine';
import { CLASSIFICATION_REASONS, classificationFactor, FACTORY_ACCURACY } from '../../server/simulator/recogniser';

/** An AI package's content as the trainer writes it (server/ai/train.worker.ts): the classifier file with its held-out accuracy. */
const trainedModel = (accuracy: number) =>
  Buffer.from(JSON.stringify({ format: 'rvm-ai-classifier', version: 1, inputSize: 32, labels: ['bottle', 'can'], taskId: 7, accuracy, weights: {} }));

const machine = () =>
  new VirtualMachine({
    profile: { serialNumber: 'T9-RECOGNISER', termType: 'T9', binCount: 3 },
    credentials: { serialNumber: 'T9-RECOGNISER', secret: 'x', brokerUrl: 'mqtt://127.0.0.1:1' },
    seed: 'recogniser',
    autopilot: false,
  });

/** Items of 1,500 consumers by reject reason group: classification rejects, other rejects, accepted. */
const consumers = (at: VirtualMachine) => {
  const items = Array.from({ length: 1500 }, (_, index) => at.drawConsumer(index + 1)).flatMap((draft) => draft.items);
  return {
    items: items.length,
    classification: items.filter((item) => item.rejectReason !== undefined && CLASSIFICATION_REASONS.has(item.rejectReason)).length,
    other: items.filter((item) => item.rejectReason !== undefined && !CLASSIFICATION_REASONS.has(item.rejectReason)).length,
  };
};

describe('simulated machines classify with the trained model they run', () => {
  const factory = consumers(machine());

  it('a better model makes fewer classification rejects, a worse one more', () => {
    const better = machine();
    expect(better.keepsContent('ai')).toBe(true);
    expect(better.applyContent('ai', trainedModel(0.95))).toBeNull();
    const worse = machine();
    expect(worse.applyContent('ai', trainedModel(0.6))).toBeNull();
    const [withBetter, withWorse] = [consumers(better), consumers(worse)];
    // the same seed: about the same consumers (the recogniser's own draws shift the stream a little)
    expect(Math.abs(withBetter.items - factory.items)).toBeLessThan(factory.items * 0.05);
    const share = (counts: typeof factory, of: number) => of / counts.items;
    expect(factory.classification).toBeGreaterThan(60);
    // 95 %: a quarter of the factory's mistakes (0.05 / 0.2); 60 %: twice as many (0.4 / 0.2)
    expect(share(withBetter, withBetter.classification)).toBeLessThan(share(factory, factory.classification) * 0.4);
    expect(share(withWorse, withWorse.classification)).toBeGreaterThan(share(factory, factory.classification) * 1.6);
    // the other rejects (wrong material, barcode, bin full…) are not the recogniser's: about as many
    expect(Math.abs(share(withBetter, withBetter.other) - share(factory, factory.other))).toBeLessThan(share(factory, factory.other) * 0.15);
  });

  it('the factor is the model error over the factory error, capped; an AI package that is no trained model changes nothing', () => {
    expect(classificationFactor(FACTORY_ACCURACY)).toBeCloseTo(1, 9);
    expect(classificationFactor(0.9)).toBeCloseTo(0.5, 9);
    expect(classificationFactor(1)).toBe(0);
    expect(classificationFactor(0)).toBe(4);
    const other = machine();
    expect(other.applyContent('ai', Buffer.from('a vendor model, not ours'))).toBeNull();
    expect(other.recogniser.factor).toBe(1);
    expect(consumers(other)).toEqual(factory);
    // the factory's accuracy written out is the factory's behaviour
    const same = machine();
    same.applyContent('ai', trainedModel(FACTORY_ACCURACY));
    expect(consumers(same).classification).toBe(factory.classification);
  });
});

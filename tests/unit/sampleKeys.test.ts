// The keys of the sample grids (src/aiTraining/sampleKeys.ts), one rule for Image labeling and Image
// classification (docs/ai-training.md "Labeling", "Image classification").
import { describe, expect, it } from 'vitest';
import { sampleKeyAction } from '../../src/aiTraining/sampleKeys';

const LABELS = ['bottle', 'can', 'glass'];
const press = (key: string, code = key, extra: { ctrlKey?: boolean; metaKey?: boolean } = {}) => sampleKeyAction({ key, code, ...extra }, 7, LABELS);

describe('sample grid keys', () => {
  it('arrows move by one, up and down by a row', () => {
    expect([press('ArrowRight'), press('ArrowLeft'), press('ArrowDown'), press('ArrowUp')]).toEqual([
      { kind: 'move', delta: 1 },
      { kind: 'move', delta: -1 },
      { kind: 'move', delta: 7 },
      { kind: 'move', delta: -7 },
    ]);
  });

  it('number keys pick the label of their number (by the key, whatever the layout types), none past the last', () => {
    expect(press('2', 'Digit2')).toEqual({ kind: 'label', label: 'can' });
    expect(press('&', 'Digit1')).toEqual({ kind: 'label', label: 'bottle' });
    expect(press('4', 'Digit4')).toBeNull();
    expect(press('0', 'Digit0')).toBeNull();
  });

  it('Space selects, Enter takes the model’s label, Ctrl+Z or ⌘Z undoes; other keys do nothing', () => {
    expect(press(' ', 'Space')).toEqual({ kind: 'select' });
    expect(press('Enter')).toEqual({ kind: 'accept' });
    expect(press('z', 'KeyZ', { ctrlKey: true })).toEqual({ kind: 'undo' });
    expect(press('Z', 'KeyZ', { metaKey: true })).toEqual({ kind: 'undo' });
    expect(press('z', 'KeyZ')).toBeNull();
    expect(press('a', 'KeyA')).toBeNull();
  });
});

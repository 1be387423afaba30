// The keys of the sample grids (Image labeling and Image classification, docs/ai-training.md "Labeling"):
// arrows move (up and down by a row), number keys 1–9 pick the label of that number, Space selects, Ctrl+Z
// (or ⌘Z) undoes, Enter takes the model's label where a screen shows one. One rule for both screens.

export type SampleKeyAction = { kind: 'move'; delta: number } | { kind: 'label'; label: string } | { kind: 'select' } | { kind: 'undo' } | { kind: 'accept' };

export interface SampleKey {
  key: string;
  code: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

/** What a key press does in a grid of `columns` columns with these labels in number-key order; null: nothing. */
export const sampleKeyAction = (event: SampleKey, columns: number, labels: readonly string[]): SampleKeyAction | null => {
  if (event.key === 'ArrowRight') return { kind: 'move', delta: 1 };
  if (event.key === 'ArrowLeft') return { kind: 'move', delta: -1 };
  if (event.key === 'ArrowDown') return { kind: 'move', delta: columns };
  if (event.key === 'ArrowUp') return { kind: 'move', delta: -columns };
  if (event.key === ' ') return { kind: 'select' };
  if (event.key === 'Enter') return { kind: 'accept' };
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') return { kind: 'undo' };
  if (/^Digit[1-9]$/.test(event.code)) {
    const label = labels[Number(event.code.slice(5)) - 1];
    return label ? { kind: 'label', label } : null;
  }
  return null;
};

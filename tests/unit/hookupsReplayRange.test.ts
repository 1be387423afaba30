// The replay dialog sends whole minutes, as its minute-precision pickers show them (docs/api-hookups.md
// "Resend and replay"): "to" reaches the end of its minute, so the default "now" also takes a message stamped
// a few seconds ahead of the browser's clock.
import { describe, expect, it } from 'vitest';
import { replayRange } from '../../src/hookups/replayRange';

describe('replay range', () => {
  it('starts at the start of the "from" minute and ends at the last millisecond of the "to" minute', () => {
    expect(replayRange({ from: new Date('2026-11-26T22:53:30.018Z'), to: new Date('2026-11-27T22:53:30.018Z') })).toEqual({
      from: '2026-11-26T22:53:00.000Z',
      to: '2026-11-27T22:53:59.999Z',
    });
  });

  it("takes the pickers' strings as they are typed (a minute, no seconds)", () => {
    const range = replayRange({ from: '2026-11-27T08:00:00.000Z', to: '2026-11-27T09:15:00.000Z' });
    expect(range.to).toBe('2026-11-27T09:15:59.999Z');
    expect(new Date('2026-11-27T09:15:42Z') <= new Date(range.to)).toBe(true);
    expect(new Date('2026-11-27T09:16:00Z') <= new Date(range.to)).toBe(false);
  });
});

// A simulated machine reads a promotion package as the server builds it (docs/promotions.md#what-machines-show):
// the tar's first entry is promotion.json; what the screen shows follows the option's dates, days and hours,
// else the default promotion; a package without the manifest is refused with the reason.
import { describe, expect, it } from 'vitest';
import { tarOf, type PromotionManifest } from '../../server/promotions/content';
import { PromotionScreen } from '../../server/simulator/promotionScreen';

const manifest: PromotionManifest = {
  v: 1,
  option: { id: 3, name: 'Weekend mornings', startDate: '2026-12-01', endDate: '2026-12-31', days: ['sat', 'sun'], startHour: 8, endHour: 12 },
  items: [
    { position: 1, durationSeconds: 20, resource: { id: 1, name: 'Winter' } },
    { position: 2, durationSeconds: 10, resource: { id: 2, name: 'Cans' } },
  ],
  default: { durationSeconds: 15, resource: { id: 9, name: 'House' } },
};
const archive = tarOf([
  { name: 'promotion.json', content: Buffer.from(JSON.stringify(manifest)) },
  { name: 'media/abc.png', content: Buffer.alloc(700, 1) },
]);

describe('the promotion screen of a simulated machine', () => {
  it('shows the option in its hours and the default outside them', () => {
    const screen = new PromotionScreen();
    expect(screen.apply(archive)).toBeNull();
    expect(archive.length % 512).toBe(0);
    expect(screen.showing(new Date('2026-12-05T09:30:00Z'))).toBe('Winter, Cans'); // a Saturday at 9
    expect(screen.showing(new Date('2026-12-05T12:00:00Z'))).toBe('House'); // until hour 12 excludes 12:00
    expect(screen.showing(new Date('2026-12-07T09:30:00Z'))).toBe('House'); // a Monday
    expect(screen.showing(new Date('2027-01-02T09:30:00Z'))).toBe('House'); // after the last day
  });

  it('refuses a package without its manifest first', () => {
    const screen = new PromotionScreen();
    expect(screen.apply(Buffer.from('{"v":1}'))).toBe('not a tar archive');
    expect(screen.apply(tarOf([{ name: 'media/abc.png', content: Buffer.alloc(10) }]))).toBe('first entry is media/abc.png, not promotion.json');
    expect(screen.apply(tarOf([{ name: 'promotion.json', content: Buffer.from('{oops') }]))).toBe('promotion.json is not JSON');
    expect(screen.manifest).toBeNull();
  });
});

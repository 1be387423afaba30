// A simulated machine's promotion screen (docs/promotions.md#what-machines-show): it reads the package's
// `promotion.json` (the first entry of its tar archive) and keeps it; a package without a readable one is
// refused (`failed` with the reason), as real firmware would. What it shows at a moment follows the option's
// dates, days and hours, else the default promotion.
import type { PromotionManifest } from '../promotions/content';

const DAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export class PromotionScreen {
  manifest: PromotionManifest | null = null;

  /** Reads the archive's manifest; a text is why it cannot. */
  apply(content: Buffer): string | null {
    if (content.length < 512 || content.toString('latin1', 257, 262) !== 'ustar') return 'not a tar archive';
    const name = content.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    if (name !== 'promotion.json') return `first entry is ${name || 'unnamed'}, not promotion.json`;
    const size = Number.parseInt(content.toString('latin1', 124, 135), 8);
    if (!Number.isFinite(size) || 512 + size > content.length) return 'promotion.json is cut short';
    try {
      const manifest = JSON.parse(content.toString('utf8', 512, 512 + size)) as PromotionManifest;
      if (manifest.v !== 1 || !Array.isArray(manifest.items)) return 'promotion.json has no items';
      this.manifest = manifest;
      return null;
    } catch {
      return 'promotion.json is not JSON';
    }
  }

  /** The name of what the screen shows at `now` (the machine's clock): the option's resources in their hours, else the default. */
  showing(now: Date): string | null {
    const manifest = this.manifest;
    if (!manifest) return null;
    const option = manifest.option;
    const day = now.toISOString().slice(0, 10);
    const hour = now.getUTCHours();
    const inOption =
      option !== null &&
      day >= option.startDate &&
      day <= option.endDate &&
      option.days.includes(DAY_KEYS[now.getUTCDay()]) &&
      hour >= option.startHour &&
      hour < option.endHour &&
      manifest.items.length > 0;
    if (inOption) return manifest.items.map((item) => item.resource.name).join(', ');
    return manifest.default?.resource.name ?? null;
  }
}

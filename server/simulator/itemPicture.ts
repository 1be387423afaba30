// The picture a simulated machine's camera takes of an item (docs/ai-training.md "Samples"): a 64×64 RGB
// drawing of one of six silhouettes (bottle, can, glass bottle, cup, crushed flat bottle, something else),
// in varied colours, sizes, angles, positions, backgrounds and lighting, with noise and some hard cases
// (small, dim, low contrast, cut off by the frame). Synthetic, but a classifier has to learn shapes to
// tell them apart, since colours overlap between classes.
import sharp from 'sharp';
import type { ItemType } from '../../resources/fleetCatalogue';

export const PICTURE_SIZE = 64;

type Rgb = [number, number, number];

/** Half-width of the silhouette at position `v` along its axis (-1 bottom .. 1 top), 0 outside. */
type Profile = (v: number) => number;

interface Shape {
  profile: Profile;
  /** Length of the item relative to the frame. */
  length: number;
  colour: Rgb;
  /** A second colour: cap, label band, rim. */
  accent: Rgb;
  /** Where the accent is (by v and u), and how shiny the body is. */
  accentAt: (v: number, u: number) => boolean;
  shine: number;
  /** Dark creases (crushed items). */
  creases?: number;
}

const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);
const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const between = (random: () => number, min: number, max: number) => min + random() * (max - min);
const jitter = (random: () => number, [r, g, b]: Rgb, amount: number): Rgb => [
  clamp(r + between(random, -amount, amount)),
  clamp(g + between(random, -amount, amount)),
  clamp(b + between(random, -amount, amount)),
];

const PLASTIC: Rgb[] = [
  [170, 210, 230],
  [120, 190, 140],
  [90, 140, 220],
  [215, 225, 235],
  [200, 120, 110],
];
const GLASS: Rgb[] = [
  [110, 70, 30],
  [40, 100, 50],
  [160, 185, 170],
  [70, 50, 25],
];
const METAL: Rgb[] = [
  [200, 30, 40],
  [30, 80, 190],
  [190, 190, 200],
  [20, 140, 70],
  [230, 190, 40],
  [30, 30, 35],
];
const CUP: Rgb[] = [
  [240, 240, 235],
  [230, 200, 150],
  [200, 60, 60],
  [120, 170, 220],
];
const ANY: Rgb[] = [...PLASTIC, ...METAL, ...CUP, [120, 80, 50], [250, 140, 30]];

const shapeOf = (random: () => number, type: ItemType): Shape => {
  switch (type) {
    case 'plasticBottle': {
      const body = between(random, 0.26, 0.34);
      return {
        // body, shoulder, neck, cap
        profile: (v) => (v < -1 || v > 1 ? 0 : v < 0.25 ? body : v < 0.55 ? lerp(body, 0.1, (v - 0.25) / 0.3) : v < 0.85 ? 0.1 : 0.12),
        length: between(random, 0.7, 0.95),
        colour: jitter(random, pick(random, PLASTIC), 25),
        accent: jitter(random, pick(random, METAL), 20),
        accentAt: (v, u) => v > 0.85 || (v > -0.35 && v < -0.05 && Math.abs(u) < body),
        shine: 0.55,
      };
    }
    case 'glass': {
      const body = between(random, 0.25, 0.3);
      return {
        // short body, long neck, no cap
        profile: (v) => (v < -1 || v > 1 ? 0 : v < 0 ? body : v < 0.3 ? lerp(body, 0.08, v / 0.3) : 0.08),
        length: between(random, 0.75, 0.98),
        colour: jitter(random, pick(random, GLASS), 15),
        accent: jitter(random, [235, 225, 200], 15),
        accentAt: (v) => v > -0.6 && v < -0.25,
        shine: 0.8,
      };
    }
    case 'can': {
      const half = between(random, 0.5, 0.6);
      return {
        profile: (v) => (v < -1 || v > 1 ? 0 : Math.abs(v) > 0.9 ? half * 0.9 : half),
        length: between(random, 0.45, 0.65),
        colour: jitter(random, pick(random, METAL), 20),
        accent: [205, 205, 210],
        accentAt: (v) => Math.abs(v) > 0.82,
        shine: 0.9,
      };
    }
    case 'plasticCup': {
      const top = between(random, 0.6, 0.75);
      return {
        // wider at the top, with a rim
        profile: (v) => (v < -1 || v > 1 ? 0 : lerp(top * 0.6, top, (v + 1) / 2) + (v > 0.9 ? 0.05 : 0)),
        length: between(random, 0.45, 0.65),
        colour: jitter(random, pick(random, CUP), 20),
        accent: jitter(random, [250, 250, 250], 5),
        accentAt: (v) => v > 0.88,
        shine: 0.25,
      };
    }
    case 'flat': {
      const phase = random() * Math.PI * 2;
      const wide = between(random, 0.55, 0.7);
      return {
        // a crushed bottle: wide, ragged edges, creases
        profile: (v) => (v < -0.75 || v > 0.75 ? 0 : wide + 0.12 * Math.sin(v * 11 + phase) + 0.06 * Math.sin(v * 27 + phase * 2)),
        length: between(random, 0.7, 0.95),
        colour: jitter(random, pick(random, PLASTIC), 25),
        accent: jitter(random, pick(random, METAL), 20),
        accentAt: (v) => v > -0.2 && v < 0.1,
        shine: 0.2,
        creases: between(random, 5, 9),
      };
    }
    case 'others': {
      const kind = Math.floor(random() * 4);
      const size = between(random, 0.4, 0.7);
      const profiles: Profile[] = [
        (v) => (Math.abs(v) > 1 ? 0 : size * Math.sqrt(1 - v * v) * 1.6), // ball, fruit
        (v) => (Math.abs(v) > 1 ? 0 : size * (1 - v) * 0.7), // triangle, wedge
        (v) => (Math.abs(v) > 0.7 ? 0 : size * 1.1), // box, carton
        (v) => (Math.abs(v) > 1 ? 0 : size * (0.5 + 0.5 * Math.abs(Math.sin(v * 7)))), // something odd
      ];
      return {
        profile: profiles[kind],
        length: between(random, 0.45, 0.8),
        colour: jitter(random, pick(random, ANY), 30),
        accent: jitter(random, pick(random, ANY), 30),
        accentAt: (v, u) => kind === 2 && u > 0.1 && v > 0,
        shine: 0.3,
      };
    }
  }
};

/**
 * Draws one picture into a raw RGB buffer (PICTURE_SIZE² × 3 bytes). `random` gives numbers in [0, 1);
 * the same sequence always draws the same picture.
 */
export const drawItemPixels = (random: () => number, type: ItemType): Uint8Array => {
  const size = PICTURE_SIZE;
  const pixels = new Uint8Array(size * size * 3);
  const shape = shapeOf(random, type);
  const hard = random() < 0.1; // small, dim or low-contrast pictures the model must still get right
  const scale = shape.length * (hard ? between(random, 0.55, 0.75) : between(random, 0.85, 1.05)) * (size / 2);
  const angle = between(random, -Math.PI, Math.PI);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const cx = size / 2 + between(random, -8, 8);
  const cy = size / 2 + between(random, -8, 8);
  const light = hard ? between(random, 0.45, 0.7) : between(random, 0.75, 1.15);
  const lightAngle = random() * Math.PI * 2;
  const background: Rgb = hard
    ? jitter(random, shape.colour, 40)
    : jitter(
        random,
        pick(random, [
          [60, 60, 65],
          [120, 120, 115],
          [180, 175, 165],
          [40, 50, 70],
          [90, 80, 60],
        ] as Rgb[]),
        25,
      );
  const noise = between(random, 4, 14);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x - cx;
      const dy = y - cy;
      // the item's own frame: v along its axis (-1..1), u across it
      const v = -(dx * sin + dy * cos) / scale;
      const u = (dx * cos - dy * sin) / scale;
      const half = shape.profile(v);
      let colour: Rgb;
      if (half > 0 && Math.abs(u) <= half) {
        const across = u / half; // -1..1: round bodies are lit on one side and shine in a stripe
        const shade = 0.75 + 0.25 * Math.cos(across * 1.4) + (Math.abs(across + 0.45) < 0.12 ? shape.shine * 0.5 : 0);
        const base = shape.accentAt(v, u) ? shape.accent : shape.colour;
        const crease = shape.creases && Math.abs(Math.sin(v * shape.creases * Math.PI + u * 3)) < 0.12 ? 0.55 : 1;
        colour = [base[0] * shade * crease, base[1] * shade * crease, base[2] * shade * crease];
      } else {
        const gradient = 0.85 + 0.15 * ((x * Math.cos(lightAngle) + y * Math.sin(lightAngle)) / size);
        colour = [background[0] * gradient, background[1] * gradient, background[2] * gradient];
      }
      const offset = (y * size + x) * 3;
      for (let channel = 0; channel < 3; channel++) pixels[offset + channel] = clamp(colour[channel] * light + (random() - 0.5) * 2 * noise);
    }
  }
  return pixels;
};

/** The picture as a PNG file, as a machine uploads it. */
export const drawItemPicture = (random: () => number, type: ItemType): Promise<Buffer> =>
  sharp(drawItemPixels(random, type), { raw: { width: PICTURE_SIZE, height: PICTURE_SIZE, channels: 3 } })
    .png()
    .toBuffer();

// Item pictures: small SVGs drawn from (item type, variant), so consumer session items carry a
// short reference ("can/3") instead of image blobs. Public (an <img> cannot send the token header)
// and immutable: the same reference always draws the same picture.
import { Type } from 'typebox';
import { ITEM_TYPES, PICTURE_VARIANTS, type ItemType } from '../../resources/fleetCatalogue';
import { StringEnum, type TypedApp } from '../lib/typedApp';

export const pictureUrl = (reference: string) => `/test-api/picture/${reference}.svg`;

const PALETTES: Record<ItemType, readonly string[]> = {
  plasticBottle: ['#4fc3f7', '#81d4fa', '#aed581', '#ffb74d', '#e57373', '#ba68c8', '#90a4ae', '#4db6ac'],
  can: ['#d32f2f', '#1976d2', '#388e3c', '#fbc02d', '#7b1fa2', '#455a64', '#f57c00', '#c2185b'],
  glass: ['#2e7d32', '#6d4c41', '#b0bec5', '#1b5e20', '#795548', '#cfd8dc', '#33691e', '#4e342e'],
  plasticCup: ['#fff59d', '#b3e5fc', '#f8bbd0', '#c8e6c9', '#ffe0b2', '#d1c4e9', '#ffccbc', '#e0f7fa'],
  flat: ['#90caf9', '#ef9a9a', '#a5d6a7', '#ffe082', '#ce93d8', '#b0bec5', '#ffab91', '#80cbc4'],
  others: ['#a1887f', '#ffcc80', '#bcaaa4', '#e6ee9c', '#9fa8da', '#f48fb1', '#80deea', '#c5e1a5'],
};

const SHAPES: Record<ItemType, (color: string, variant: number) => string> = {
  plasticBottle: (color, v) => {
    const width = 44 + (v % 3) * 6;
    const x = 60 - width / 2;
    return `<rect x="52" y="14" width="16" height="10" rx="2" fill="#37474f"/>
<path d="M54 24 h12 l${width / 2 - 6} 22 v86 a8 8 0 0 1 -8 8 h${-(width - 16)} a8 8 0 0 1 -8 -8 v-86 z" fill="${color}" fill-opacity="0.75" stroke="#263238" stroke-width="2" transform="translate(${x - 60 + width / 2} 0)"/>
<rect x="${x}" y="78" width="${width}" height="26" fill="#ffffff" fill-opacity="0.85"/>`;
  },
  can: (color) => `<rect x="34" y="30" width="52" height="100" fill="${color}" stroke="#263238" stroke-width="2"/>
<ellipse cx="60" cy="30" rx="26" ry="7" fill="#cfd8dc" stroke="#263238" stroke-width="2"/>
<ellipse cx="60" cy="130" rx="26" ry="7" fill="${color}" stroke="#263238" stroke-width="2"/>
<rect x="54" y="24" width="12" height="6" rx="3" fill="#90a4ae"/>
<rect x="34" y="66" width="52" height="22" fill="#ffffff" fill-opacity="0.8"/>`,
  glass: (
    color,
  ) => `<path d="M54 10 h12 v34 c0 8 16 12 16 26 v66 a6 6 0 0 1 -6 6 h-32 a6 6 0 0 1 -6 -6 v-66 c0 -14 16 -18 16 -26 z" fill="${color}" fill-opacity="0.85" stroke="#1b1b1b" stroke-width="2"/>
<rect x="40" y="90" width="40" height="24" fill="#fafafa" fill-opacity="0.8"/>`,
  plasticCup: (color) => `<path d="M30 44 h60 l-8 96 h-44 z" fill="${color}" fill-opacity="0.8" stroke="#37474f" stroke-width="2"/>
<rect x="26" y="36" width="68" height="10" rx="4" fill="#eceff1" stroke="#37474f" stroke-width="2"/>
<rect x="66" y="8" width="6" height="30" fill="#e53935" transform="rotate(12 69 23)"/>`,
  flat: (color, v) => {
    const jitter = (n: number) => ((n * 37 + v * 11) % 13) - 6;
    return `<path d="M22 ${62 + jitter(1)} L46 ${48 + jitter(2)} L60 ${58 + jitter(3)} L78 ${44 + jitter(4)} L100 ${60 + jitter(5)} L94 ${102 + jitter(6)} L70 ${110 + jitter(7)} L52 ${100 + jitter(8)} L28 ${108 + jitter(9)} z" fill="${color}" stroke="#263238" stroke-width="2"/>
<path d="M40 70 L56 92 M70 64 L82 96" stroke="#263238" stroke-width="1.5" fill="none"/>`;
  },
  others: (color) => `<path d="M36 40 l24 -14 l24 14 v92 h-48 z" fill="${color}" stroke="#3e2723" stroke-width="2"/>
<path d="M36 40 h48" stroke="#3e2723" stroke-width="2"/>
<rect x="44" y="70" width="32" height="30" fill="#ffffff" fill-opacity="0.7"/>`,
};

export const drawPicture = (itemType: ItemType, variant: number): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="160" viewBox="0 0 120 160" role="img" aria-label="${itemType} ${variant}">
<rect width="120" height="160" fill="#f5f5f5"/>
${SHAPES[itemType](PALETTES[itemType][variant % PICTURE_VARIANTS], variant)}
</svg>
`;

export const registerPictureRoutes = (app: TypedApp) => {
  app.get(
    '/picture/:itemType/:file',
    {
      config: { public: true },
      schema: {
        tags: ['rvmpage'],
        summary: 'Generated item picture (SVG) of a consumer session item: /picture/<itemType>/<variant>.svg; public and immutable',
        params: Type.Object({ itemType: StringEnum(ITEM_TYPES), file: Type.String({ pattern: '^[0-7]\\.svg$' }) }),
      },
    },
    async (request, reply) => {
      const { itemType, file } = request.params;
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(drawPicture(itemType, Number(file.charAt(0))));
    },
  );
};

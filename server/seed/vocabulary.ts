// The demo fleet's world: machine models with their bins and reject profiles, Hong Kong regions and
// districts, streets, operators, technicians, products (barcodes) and usage curves. Plain data, so
// the simulation reads like the business it imitates.
import { PICTURE_VARIANTS, type ItemType, type PayoutMethod } from '../../resources/fleetCatalogue';
import { hashSeed } from './random';

export interface MachineModel {
  name: string;
  /** Material of each bin, in bin order. */
  bins: readonly ItemType[];
  /** Item types the machine takes (others are rejected as wrong material). */
  accepts: readonly ItemType[];
  /** Share of acceptable items rejected anyway (dirty, no barcode, ...). */
  rejectRate: number;
  /** Relative weights of the reject reasons of those quality rejects (codes of docs/product-rules.md#catalogues). */
  rejectProfile: ReadonlyArray<readonly [number, number]>;
  /** Oldest first; most machines run the newest. */
  softwareVersions: readonly string[];
  /** Share of the fleet. */
  share: number;
  /** Down intervals per machine and day. */
  faultRate: number;
}

export const MODELS: readonly MachineModel[] = [
  {
    name: 'H30',
    bins: ['plasticBottle', 'can'],
    accepts: ['plasticBottle', 'can', 'flat'],
    rejectRate: 0.08,
    rejectProfile: [
      [1, 30],
      [2, 20],
      [4, 10],
      [5, 5],
      [10, 5],
      [11, 4],
      [12, 3],
      [13, 6],
      [15, 6],
      [19, 3],
      [21, 5],
      [22, 2],
      [23, 1],
    ],
    softwareVersions: ['3.1.4', '3.2.0', '3.2.2'],
    share: 0.45,
    faultRate: 0.05,
  },
  {
    name: 'T9',
    bins: ['plasticBottle', 'can', 'glass'],
    accepts: ['plasticBottle', 'can', 'glass', 'flat'],
    rejectRate: 0.06,
    rejectProfile: [
      [1, 25],
      [2, 25],
      [3, 8],
      [4, 12],
      [5, 8],
      [10, 4],
      [11, 3],
      [12, 6],
      [13, 4],
      [15, 3],
      [16, 1],
      [19, 1],
    ],
    softwareVersions: ['5.0.1', '5.1.0'],
    share: 0.25,
    faultRate: 0.04,
  },
  {
    name: 'S1',
    bins: ['plasticBottle', 'can'],
    accepts: ['plasticBottle', 'can'],
    rejectRate: 0.12,
    rejectProfile: [
      [1, 35],
      [2, 15],
      [4, 6],
      [13, 12],
      [15, 12],
      [19, 6],
      [20, 2],
      [21, 8],
      [22, 4],
    ],
    softwareVersions: ['2.4.0', '2.4.3'],
    share: 0.2,
    faultRate: 0.07,
  },
  {
    // The tracing-code model: reject codes 101-103 only occur here.
    name: 'M5',
    bins: ['plasticBottle', 'can', 'plasticCup'],
    accepts: ['plasticBottle', 'can', 'plasticCup', 'flat'],
    rejectRate: 0.1,
    rejectProfile: [
      [1, 15],
      [2, 10],
      [4, 6],
      [5, 4],
      [101, 25],
      [102, 15],
      [103, 10],
      [13, 5],
      [15, 5],
      [23, 5],
    ],
    softwareVersions: ['1.0.8', '1.1.0', '1.2.1'],
    share: 0.1,
    faultRate: 0.06,
  },
];

/** Items a bin holds when full, by material. */
export const BIN_CAPACITY: Record<ItemType, number> = {
  plasticBottle: 450,
  can: 800,
  glass: 180,
  plasticCup: 600,
  flat: 450,
  others: 300,
};

/** What consumers bring. */
export const ITEM_MIX: ReadonlyArray<readonly [ItemType, number]> = [
  ['plasticBottle', 66],
  ['can', 24],
  ['glass', 3.5],
  ['plasticCup', 2.5],
  ['flat', 2.5],
  ['others', 1.5],
];

/** Refund of an accepted item (HKD). */
export const ITEM_REFUND: Record<ItemType, number> = {
  plasticBottle: 0.1,
  can: 0.1,
  glass: 0.2,
  plasticCup: 0.05,
  flat: 0.1,
  others: 0,
};

export const PAYOUT_MIX: ReadonlyArray<readonly [PayoutMethod, number]> = [
  ['octopus', 34],
  ['alipayHK', 12],
  ['loyaltyAccount', 16],
  ['receipt', 11],
  ['supermarket', 8],
  ['ticket', 4],
  ['thirdPartyPayment', 6],
  ['donation', 5],
  ['userCancelledPayment', 4],
];

export const REGIONS: ReadonlyArray<{ name: string; districts: ReadonlyArray<readonly [string, number, number]> }> = [
  {
    name: 'Hong Kong Island',
    districts: [
      ['Central and Western', 114.15, 22.285],
      ['Wan Chai', 114.18, 22.278],
      ['Eastern', 114.225, 22.284],
      ['Southern', 114.17, 22.245],
    ],
  },
  {
    name: 'Kowloon',
    districts: [
      ['Yau Tsim Mong', 114.17, 22.31],
      ['Sham Shui Po', 114.16, 22.33],
      ['Kowloon City', 114.19, 22.325],
      ['Wong Tai Sin', 114.2, 22.342],
      ['Kwun Tong', 114.225, 22.313],
    ],
  },
  {
    name: 'New Territories',
    districts: [
      ['Kwai Tsing', 114.13, 22.355],
      ['Tsuen Wan', 114.115, 22.372],
      ['Tuen Mun', 113.975, 22.39],
      ['Yuen Long', 114.03, 22.445],
      ['North', 114.13, 22.5],
      ['Tai Po', 114.165, 22.45],
      ['Sha Tin', 114.19, 22.385],
      ['Sai Kung', 114.27, 22.38],
      ['Islands', 113.95, 22.28],
    ],
  },
];

export const STREETS = [
  'Nathan Road',
  'Queensway',
  'Hennessy Road',
  "King's Road",
  'Des Voeux Road',
  'Castle Peak Road',
  'Tai Po Road',
  'Prince Edward Road',
  'Lung Cheung Road',
  'Hoi Bun Road',
  'Ma On Shan Road',
  'Tsing Yi Road',
  'Sai Yeung Choi Street',
  'Argyle Street',
  'Waterloo Road',
  'Kwun Tong Road',
  'Shau Kei Wan Road',
  'Aberdeen Main Road',
  'Tung Chung Road',
  'Sha Tsui Road',
  'Yuen Long Main Road',
  'Fanling Station Road',
  'Hiram’s Highway',
  'Tat Chee Avenue',
  'Po Kong Village Road',
];

export const SITES = [
  'Wellmart Supermarket',
  'FreshWay Supermarket',
  'MTR Station Concourse',
  'Public Housing Estate',
  'Community Recycling Store',
  'Shopping Mall',
  'Secondary School',
  'Sports Centre',
  'Public Library',
  'Municipal Services Building',
];

export const OPERATORS = ['Green Cycle Ltd', 'EcoReturn HK', 'CleanCity Services', 'Urban Recycling Co'];

export const TECHNICIANS = [
  'Chan Tai Man',
  'Wong Siu Ming',
  'Lee Ka Ho',
  'Cheung Wai Kit',
  'Lau Chi Keung',
  'Ng Man Kit',
  'Ho Ka Yan',
  'Leung Hoi Lam',
  'Yip Chun Wai',
  'Tam Sze Wing',
  'Kwok Ming Fai',
  'Lam Tsz Ching',
  'Fung Yuk Ling',
  'Tsang Ho Yin',
  'Mak Wing Sze',
  'Choi Kin Man',
];

export const DONATION_INSTITUTES = ['Food Angel', 'Hong Kong Red Cross', 'WWF Hong Kong', 'Green Power', 'The Community Chest'];

/** Relative usage per local hour (0-23): lunch and after-work peaks. */
export const HOURLY_USAGE = [0.15, 0.08, 0.04, 0.03, 0.03, 0.08, 0.3, 0.8, 1.2, 1.4, 1.6, 1.9, 2.2, 2.0, 1.6, 1.5, 1.7, 2.1, 2.4, 2.2, 1.8, 1.3, 0.8, 0.35];

/** Relative usage per weekday (0 = Sunday): weekends are busier. */
export const WEEKDAY_USAGE = [1.3, 0.9, 0.9, 0.95, 1.0, 1.1, 1.35];

/** The demo fleet lives in Hong Kong: local time is UTC+8 all year. */
export const LOCAL_OFFSET_MS = 8 * 3_600_000;

const CATEGORIES: Record<ItemType, readonly string[]> = {
  plasticBottle: ['PET water 500ml', 'PET water 1.5L', 'PET soft drink 500ml', 'PET tea 500ml', 'PET juice 330ml', 'PET sports drink 600ml'],
  can: ['Aluminium can 330ml', 'Aluminium can 500ml', 'Steel can 250ml', 'Beer can 500ml'],
  glass: ['Glass bottle 330ml', 'Glass bottle 640ml', 'Glass jar 250ml'],
  plasticCup: ['PP cup 500ml', 'PET cup 400ml'],
  flat: ['Crushed PET bottle', 'Crushed can'],
  others: ['Beverage carton', 'Paper cup', 'HDPE bottle', 'Unknown object'],
};

export interface Product {
  barcode: string;
  category: string;
  /** Picture variant (colour) of the generated item picture. */
  variant: number;
}

/** EAN-13 check digit. */
const ean13 = (twelve: string) => {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(twelve[i]) * (i % 2 ? 3 : 1);
  return twelve + ((10 - (sum % 10)) % 10);
};

/** A fixed product range per item type (Hong Kong GS1 prefix 489). */
export const PRODUCTS: Record<ItemType, readonly Product[]> = Object.fromEntries(
  Object.entries(CATEGORIES).map(([type, categories]) => [
    type,
    Array.from({ length: type === 'plasticBottle' ? 60 : 24 }, (_, index) => ({
      barcode: ean13(`489${String(hashSeed(type, index) % 1_000_000_000).padStart(9, '0')}`),
      category: categories[index % categories.length],
      variant: hashSeed('variant', type, index) % PICTURE_VARIANTS,
    })),
  ]),
) as unknown as Record<ItemType, readonly Product[]>;

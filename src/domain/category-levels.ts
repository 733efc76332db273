/** Ticket levels a category prices and a content targets (SPEC §3), in the order screens show them. */
export const CATEGORY_LEVELS = [
  'ordinary',
  'kibimba',
  'vip',
  'vvip',
  'olukalala',
  'BigSingle',
  'singleandcorporate',
  'overs',
  'akatambula',
  'family',
  'earlykickoff',
  'doubles',
  'latekickoff',
  'normal',
  'single',
  'odd2',
  'odd3',
  'supper',
  'corporate',
] as const;

export type CategoryLevel = (typeof CATEGORY_LEVELS)[number];

/** Prices SPEC §5 requires on a category; the others are optional. */
export const REQUIRED_PRICE_LEVELS: readonly CategoryLevel[] = [
  'ordinary',
  'vip',
  'kibimba',
  'vvip',
  'akatambula',
  'family',
  'earlykickoff',
  'doubles',
  'latekickoff',
  'olukalala',
  'BigSingle',
  'singleandcorporate',
  'overs',
  'normal',
  'single',
];

/** The SMS compose form offers every level but supper and corporate (SPEC §3). */
export const SMS_CATEGORY_LEVELS: readonly CategoryLevel[] = CATEGORY_LEVELS.filter(
  (level) => level !== 'supper' && level !== 'corporate',
);

const LABELS: Partial<Record<CategoryLevel, string>> = {
  supper: 'Super',
  vip: 'VIP',
  vvip: 'VVIP',
  BigSingle: 'Big single',
  singleandcorporate: 'Single & corporate',
  earlykickoff: 'Early kick-off',
  latekickoff: 'Late kick-off',
  odd2: 'Odd 2',
  odd3: 'Odd 3',
};

export function categoryLevelLabel(level: string): string {
  const label = LABELS[level as CategoryLevel];
  if (label) return label;
  return level.charAt(0).toUpperCase() + level.slice(1);
}

import type { CategoryLevel } from '../../../src/domain/category-levels';
import type { CampaignRound } from '../../../src/domain/campaign-rounds';

/** Fixed facts of the demo data set; seed.ts turns them into rows. */

export const DEMO_AGENTS = ['kato', 'nakato', 'okello', 'achieng'] as const;
export const DEMO_AGENT_PASSWORD = 'agent-password';
export const DEMO_SUPER_USER = { userName: 'supervisor', password: 'super-password' } as const;
/** An agent flagged Afcon-only, to show that area (DESIGN §5). */
export const DEMO_AFCON_USER = { userName: 'afcon-desk', password: 'agent-password' } as const;
/** Customer care, who asks for the demo's refunds (the super-user decides on them). */
export const DEMO_CARE_USER = { userName: 'care-desk', password: 'care-password' } as const;

/**
 * The demo's refunds, newest last: each state the flow has, so /refunds and the dashboard show them.
 * `hoursAgo` is when it was requested; a share of its call's amount (1: all of it).
 */
export const DEMO_REFUNDS: { state: 'requested' | 'approved' | 'rejected' | 'submitted' | 'completed' | 'failed'; hoursAgo: number; share: number; reason: string; note?: string }[] = [
  { state: 'completed', hoursAgo: 24 * 9, share: 1, reason: 'duplicate-payment', note: 'Paid twice within a minute' },
  { state: 'failed', hoursAgo: 24 * 7, share: 1, reason: 'ticket-not-delivered' },
  { state: 'completed', hoursAgo: 24 * 6, share: 0.5, reason: 'wrong-ticket', note: 'Got the Gold tips, paid for VIP' },
  { state: 'rejected', hoursAgo: 24 * 5, share: 1, reason: 'customer-request', note: 'Changed their mind after the match' },
  { state: 'completed', hoursAgo: 24 * 4, share: 1, reason: 'ticket-not-delivered' },
  { state: 'completed', hoursAgo: 24 * 2, share: 1, reason: 'duplicate-payment' },
  { state: 'rejected', hoursAgo: 30, share: 1, reason: 'other', note: 'Says the tips lost' },
  { state: 'failed', hoursAgo: 26, share: 1, reason: 'duplicate-payment' },
  { state: 'completed', hoursAgo: 6, share: 1, reason: 'ticket-not-delivered', note: 'Phone was off all day' },
  { state: 'completed', hoursAgo: 4, share: 0.5, reason: 'wrong-ticket' },
  { state: 'submitted', hoursAgo: 3, share: 1, reason: 'duplicate-payment' },
  { state: 'approved', hoursAgo: 2, share: 1, reason: 'ticket-not-delivered' },
  { state: 'requested', hoursAgo: 2, share: 1, reason: 'duplicate-payment', note: 'Two payments, one ticket' },
  { state: 'requested', hoursAgo: 1, share: 0.5, reason: 'wrong-ticket' },
  { state: 'requested', hoursAgo: 0.5, share: 1, reason: 'customer-request' },
];

/** Typical UGX price of each level; a category scales it. */
export const BASE_PRICES: Record<CategoryLevel, number> = {
  ordinary: 1000,
  kibimba: 1500,
  vip: 5000,
  vvip: 10000,
  olukalala: 3000,
  BigSingle: 5000,
  singleandcorporate: 7500,
  overs: 2500,
  akatambula: 3000,
  family: 2500,
  earlykickoff: 2000,
  doubles: 2000,
  latekickoff: 2000,
  normal: 1000,
  single: 2000,
  odd2: 3000,
  odd3: 4000,
  supper: 20000,
  corporate: 50000,
};

/** How often customers buy each level (relative weights). */
export const LEVEL_WEIGHTS: Record<CategoryLevel, number> = {
  ordinary: 20,
  normal: 12,
  vip: 10,
  single: 8,
  doubles: 8,
  family: 6,
  kibimba: 6,
  vvip: 5,
  earlykickoff: 5,
  latekickoff: 5,
  overs: 4,
  olukalala: 3,
  akatambula: 3,
  BigSingle: 3,
  singleandcorporate: 2,
  odd2: 2,
  odd3: 2,
  supper: 1,
  corporate: 1,
};

/** Calls per hour of the day in the service's time zone: lunch and evening peaks. */
export const HOUR_WEIGHTS = [1, 1, 1, 1, 1, 2, 4, 6, 7, 7, 8, 9, 12, 13, 10, 8, 8, 10, 13, 15, 15, 12, 7, 3];

export interface DemoCategory {
  name: string;
  description: string;
  /** Scales BASE_PRICES. */
  priceFactor: number;
  /** Picks the ticket messages are made of. */
  picks: string[];
}

export const DEMO_CATEGORIES: DemoCategory[] = [
  {
    name: 'Premier League Tips',
    description: 'Weekend EPL fixtures, checked by our analysts',
    priceFactor: 1,
    picks: ['Arsenal v Chelsea 1X @1.45', 'Man City win @1.30', 'Liverpool GG @1.70', 'Spurs over 2.5 @1.65', 'Everton X2 @1.50', 'Newcastle win @1.90'],
  },
  {
    name: 'Local Football',
    description: 'Uganda Premier League: KCCA, Vipers, SC Villa and more',
    priceFactor: 0.5,
    picks: ['KCCA v Vipers GG @1.80', 'SC Villa 1X @1.40', 'Express win @2.10', 'URA under 2.5 @1.55', 'BUL v Wakiso X2 @1.60', 'Maroons win @2.40'],
  },
  {
    name: 'Lotto Picks',
    description: 'Daily lotto numbers',
    priceFactor: 0.8,
    picks: ['07 14 21 33 42', '03 11 19 27 38', '05 16 24 31 45', '09 12 28 36 40', '02 17 23 30 44', '06 13 25 34 41'],
  },
  {
    name: 'Basketball',
    description: 'NBA and FIBA Africa picks',
    priceFactor: 1.2,
    picks: ['Lakers +4.5 @1.85', 'Celtics win @1.45', 'Nuggets over 221.5 @1.90', 'City Oilers win @1.60', 'Heat v Bulls under 210 @1.75', 'Warriors win @1.70'],
  },
  {
    name: 'Jackpot',
    description: 'Midweek and mega jackpot predictions',
    priceFactor: 2,
    picks: ['1 X 2 1 1 X 2 1 1 X 1 2 1', '1 1 X 2 1 2 X 1 1 1 X 2 1', 'X 1 1 2 1 X 1 2 1 1 X 1 2', '2 1 X 1 1 1 X 2 X 1 1 2 1'],
  },
  {
    name: 'Weekend Specials',
    description: 'Best odds of Saturday and Sunday',
    priceFactor: 1.5,
    picks: ['Real Madrid win @1.35', 'Bayern over 3.5 @1.80', 'Inter v Milan GG @1.65', 'PSG win @1.30', 'Napoli 1X @1.40', 'Dortmund GG @1.55'],
  },
];

export interface DemoCampaign {
  key: string;
  name: string;
  serviceCode: string;
  rounds: CampaignRound[];
  /** Favourites first: the seed picks early teams more often. */
  teams: string[];
  /** When voting opened; campaigns list in this order. */
  opensAt: string;
}

export const WORLD_CUP_2022: DemoCampaign = {
  key: 'world-cup-2022',
  name: 'World Cup 2022',
  serviceCode: '*217*50#',
  // The tournament's real knock-out games: week 2 the round of 16, week 3 the quarter-finals, week 4 the semi-finals.
  rounds: [
    { key: 'general', label: 'General', kind: 'teams' },
    {
      key: 'week2',
      label: 'Week 2',
      kind: 'games',
      games: [
        ['Netherlands', 'USA'], ['Argentina', 'Australia'], ['France', 'Poland'], ['England', 'Senegal'],
        ['Japan', 'Croatia'], ['Brazil', 'South Korea'], ['Morocco', 'Spain'], ['Portugal', 'Switzerland'],
      ],
    },
    { key: 'week3', label: 'Week 3', kind: 'games', games: [['Croatia', 'Brazil'], ['Netherlands', 'Argentina'], ['Morocco', 'Portugal'], ['England', 'France']] },
    { key: 'week4', label: 'Week 4', kind: 'games', games: [['Argentina', 'Croatia'], ['France', 'Morocco']] },
    { key: 'final', label: 'Final', kind: 'games', games: [['Argentina', 'France']] },
  ],
  teams: [
    'Argentina', 'France', 'Brazil', 'England', 'Spain', 'Portugal', 'Germany', 'Netherlands',
    'Croatia', 'Morocco', 'Belgium', 'Senegal', 'Uruguay', 'Denmark', 'Switzerland', 'USA',
    'Mexico', 'Japan', 'South Korea', 'Poland', 'Serbia', 'Ghana', 'Cameroon', 'Ecuador',
    'Australia', 'Tunisia', 'Canada', 'Wales', 'Iran', 'Saudi Arabia', 'Costa Rica', 'Qatar',
  ],
  opensAt: '2022-11-01T00:00:00Z',
};

export const AFCON_2024: DemoCampaign = {
  key: 'afcon-2024',
  name: 'AFCON 2024',
  serviceCode: '*284*24#',
  rounds: [{ key: 'general', label: 'General', kind: 'teams' }],
  teams: [
    'Ivory Coast', 'Nigeria', 'Senegal', 'Morocco', 'Egypt', 'South Africa', 'DR Congo', 'Cameroon',
    'Algeria', 'Mali', 'Ghana', 'Cape Verde', 'Tunisia', 'Burkina Faso', 'Guinea', 'Equatorial Guinea',
    'Angola', 'Zambia', 'Mauritania', 'Namibia', 'Gambia', 'Tanzania', 'Mozambique', 'Guinea-Bissau',
  ],
  opensAt: '2024-01-01T00:00:00Z',
};

export const DEMO_CAMPAIGNS = [WORLD_CUP_2022, AFCON_2024];

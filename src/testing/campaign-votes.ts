/**
 * The campaign votes jest's global setup inserts once (see campaign-vote-seed.ts), for the web
 * tests of the campaign screens. Votes are dated in the campaigns' past, so no day list of
 * today sees them; phone numbers start 25639, which uniquePhoneNumber() never makes. Plain data:
 * the global setup reads it outside jest's test environment.
 */
export interface TestVote {
  phoneNumber: string;
  campaignKey: 'world-cup-2022' | 'afcon-2024';
  round: string;
  teamName: string;
  teamName2?: string;
  createdAt: string;
  /** Processed (counts) unless false: a failed vote counts nowhere. */
  processed?: boolean;
}

const at = (day: string, minute: number) => new Date(Date.parse(`${day}T09:00:00Z`) + minute * 60_000).toISOString();
const phone = (n: number) => `25639${String(n).padStart(7, '0')}`;

/** Week 4 has 53 voters of one vote each, oldest first, so its ranking has a second page. */
export const WEEK4_VOTERS = Array.from({ length: 53 }, (_, i) => phone(4000 + i + 1));

/** Week 3's heavy voter: 57 votes for Croatia against Brazil, more than a ranking row carries. */
export const HEAVY_VOTER = phone(3001);
export const HEAVY_VOTES = 57;

/** Week 2's only voter. */
export const WEEK2_VOTER = phone(2001);

/** The final: Argentina 4, France 2, from 3 distinct voters (6 votes); one failed vote left out. */
export const FINAL_VOTERS = [phone(5001), phone(5002), phone(5003)];

/** AFCON: a general prediction for Nigeria, three times, and one for Senegal. */
export const AFCON_VOTERS = [phone(6001), phone(6002)];

export const TEST_VOTES: TestVote[] = [
  ...WEEK4_VOTERS.map((phoneNumber, i) => ({ phoneNumber, campaignKey: 'world-cup-2022' as const, round: 'week4', teamName: 'Spain', teamName2: 'Japan', createdAt: at('2022-12-02', i) })),
  ...Array.from({ length: HEAVY_VOTES }, (_, i) => ({
    phoneNumber: HEAVY_VOTER,
    campaignKey: 'world-cup-2022' as const,
    round: 'week3',
    teamName: 'Croatia',
    teamName2: 'Brazil',
    createdAt: at('2022-11-28', i),
  })),
  { phoneNumber: WEEK2_VOTER, campaignKey: 'world-cup-2022', round: 'week2', teamName: 'Ghana', teamName2: 'Portugal', createdAt: at('2022-11-24', 0) },
  { phoneNumber: WEEK2_VOTER, campaignKey: 'world-cup-2022', round: 'week2', teamName: 'Ghana', teamName2: 'Portugal', createdAt: at('2022-11-24', 5) },
  ...[0, 1, 2].map((i) => ({ phoneNumber: FINAL_VOTERS[0], campaignKey: 'world-cup-2022' as const, round: 'final', teamName: 'Argentina', teamName2: 'France', createdAt: at('2022-12-18', i) })),
  ...[3, 4].map((i) => ({ phoneNumber: FINAL_VOTERS[1], campaignKey: 'world-cup-2022' as const, round: 'final', teamName: 'France', teamName2: 'Argentina', createdAt: at('2022-12-18', i) })),
  { phoneNumber: FINAL_VOTERS[2], campaignKey: 'world-cup-2022', round: 'final', teamName: 'Argentina', teamName2: 'France', createdAt: at('2022-12-18', 5) },
  { phoneNumber: FINAL_VOTERS[2], campaignKey: 'world-cup-2022', round: 'final', teamName: 'France', teamName2: 'Argentina', createdAt: at('2022-12-18', 6), processed: false },
  ...[0, 1, 2].map((i) => ({ phoneNumber: AFCON_VOTERS[0], campaignKey: 'afcon-2024' as const, round: 'general', teamName: 'Nigeria', createdAt: at('2024-01-20', i) })),
  { phoneNumber: AFCON_VOTERS[1], campaignKey: 'afcon-2024', round: 'general', teamName: 'Senegal', createdAt: at('2024-01-20', 3) },
];

import { sql } from 'drizzle-orm';
import { seedCampaigns } from '../src/db/seed-votes';
import { transactions } from '../src/db/schema';
import type { TestWorld } from './helpers';

export const WORLD_CUP = { key: 'world-cup-2022', code: '*217*50#' };
export const AFCON = { key: 'afcon-2024', code: '*284*24#' };

type VoteValues = Partial<typeof transactions.$inferInsert> & { phoneNumber: string };

/** The two campaigns (World Cup 2022, AFCON 2024), as the seed makes them. */
export const createCampaigns = (world: TestWorld) => seedCampaigns(world.db);

/** Votes inserted as the USSD menu and the payment callback would have left them; processed unless told. */
export async function insertVotes(world: TestWorld, campaign: { key: string; code: string }, rows: VoteValues[]) {
  if (rows.length === 0) return [];
  return world.db
    .insert(transactions)
    .values(rows.map((r) => ({ serviceCode: campaign.code, campaignKey: campaign.key, network: 'MTN', round: 'general', teamName: 'Argentina', isComplete: true, ...r })))
    .returning();
}

type Row = Record<string, string | number | boolean | null>;

export async function rowsOf(world: TestWorld, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await world.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

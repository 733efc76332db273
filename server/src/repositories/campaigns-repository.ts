import { asc, eq, sql } from 'drizzle-orm';
import type { CampaignRound, CampaignStatus } from '../../../src/domain/campaign-rounds';
import type { Db, DbOrTx } from '../db/client';
import { campaignRoundTotals, campaigns, transactions } from '../db/schema';

/** A vote campaign as the API answers it (DESIGN §3). */
export interface CampaignView {
  key: string;
  name: string;
  serviceCode: string;
  status: CampaignStatus;
  rounds: CampaignRound[];
  teams: string[];
  votesPerRoundCap: number | null;
  votePrice: number | null;
  velocityPerMinute: number;
  holdSuspicious: boolean;
  publishedAt: string | null;
  closedAt: string | null;
}

/** A campaign with its counted votes and what they brought in (UGX). */
export interface CampaignListEntry extends CampaignView {
  totalVotes: number;
  revenue: number;
}

/** What a create or an edit writes. */
export type CampaignFields = Pick<CampaignView, 'name' | 'serviceCode' | 'rounds' | 'teams' | 'votesPerRoundCap' | 'votePrice' | 'velocityPerMinute' | 'holdSuspicious'>;

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** The columns of a `CampaignView`, as one select list. */
export const campaignColumns = {
  key: campaigns.key,
  name: campaigns.name,
  serviceCode: campaigns.serviceCode,
  status: campaigns.status,
  rounds: campaigns.rounds,
  teams: campaigns.teams,
  votesPerRoundCap: campaigns.votesPerRoundCap,
  votePrice: campaigns.votePrice,
  velocityPerMinute: campaigns.velocityPerMinute,
  holdSuspicious: campaigns.holdSuspicious,
  publishedAt: campaigns.publishedAt,
  closedAt: campaigns.closedAt,
};

type CampaignRow = Omit<CampaignView, 'publishedAt' | 'closedAt'> & { publishedAt: Date | string | null; closedAt: Date | string | null };

export function campaignView(row: CampaignRow): CampaignView {
  return { ...row, publishedAt: iso(row.publishedAt), closedAt: iso(row.closedAt) };
}

export function campaignsRepository(db: Db) {
  return {
    /** Every campaign, oldest first, with its counted votes (the trigger-kept totals) and revenue. */
    async list(): Promise<CampaignListEntry[]> {
      const rows = await db
        .select({
          ...campaignColumns,
          totalVotes: sql<number>`coalesce((select sum(${campaignRoundTotals.votes}) from ${campaignRoundTotals}
            where ${campaignRoundTotals.campaignKey} = ${campaigns.key} and ${campaignRoundTotals.round} = 'all'), 0)::int`,
          revenue: sql<number>`coalesce((select sum(${transactions.amount}) from ${transactions}
            where ${transactions.campaignKey} = ${campaigns.key} and ${transactions.isComplete}), 0)::bigint`,
        })
        .from(campaigns)
        .orderBy(asc(campaigns.createdAt), asc(campaigns.key));
      return rows.map(({ totalVotes, revenue, ...row }) => ({ ...campaignView(row), totalVotes: Number(totalVotes), revenue: Number(revenue) }));
    },

    /** The campaign, locked for the writer's transaction when `forUpdate`. */
    async find(tx: DbOrTx, key: string, forUpdate = false): Promise<CampaignView | undefined> {
      const query = tx.select(campaignColumns).from(campaigns).where(eq(campaigns.key, key));
      const [row] = await (forUpdate ? query.for('update') : query);
      return row && campaignView(row);
    },

    /** Whether any vote (of any state) was ever made in the campaign: its structure is locked then. */
    async hasVotes(tx: DbOrTx, key: string): Promise<boolean> {
      const [row] = await tx.select({ one: sql`1` }).from(transactions).where(eq(transactions.campaignKey, key)).limit(1);
      return Boolean(row);
    },

    /** The live campaign of a service code other than `key`, if any. */
    async liveOnCode(tx: DbOrTx, serviceCode: string, key: string): Promise<string | undefined> {
      const [row] = await tx
        .select({ key: campaigns.key })
        .from(campaigns)
        .where(sql`${campaigns.serviceCode} = ${serviceCode} and ${campaigns.status} = 'live' and ${campaigns.key} <> ${key}`)
        .limit(1);
      return row?.key;
    },

    async insert(tx: DbOrTx, key: string, fields: CampaignFields): Promise<CampaignView> {
      const [row] = await tx.insert(campaigns).values({ key, ...fields, status: 'draft' }).returning(campaignColumns);
      return campaignView(row);
    },

    async update(
      tx: DbOrTx,
      key: string,
      fields: Partial<CampaignFields> & { status?: CampaignStatus; publishedAt?: Date; closedAt?: Date },
    ): Promise<CampaignView> {
      const [row] = await tx.update(campaigns).set(fields).where(eq(campaigns.key, key)).returning(campaignColumns);
      return campaignView(row);
    },
  };
}

export type CampaignsRepository = ReturnType<typeof campaignsRepository>;

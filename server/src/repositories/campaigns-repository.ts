import { asc } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaigns } from '../db/schema';

/** A vote campaign as the API answers it (DESIGN §3). */
export interface CampaignView {
  key: string;
  name: string;
  serviceCode: string;
  rounds: string[];
  teams: string[];
}

export function campaignsRepository(db: Db) {
  return {
    async list(): Promise<CampaignView[]> {
      return db
        .select({ key: campaigns.key, name: campaigns.name, serviceCode: campaigns.serviceCode, rounds: campaigns.rounds, teams: campaigns.teams })
        .from(campaigns)
        .orderBy(asc(campaigns.createdAt), asc(campaigns.key));
    },
  };
}

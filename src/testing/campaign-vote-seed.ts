import type { Db } from '../../server/src/db/client';
import { seedCampaigns } from '../../server/src/db/seed-votes';
import { campaigns, transactions } from '../../server/src/db/schema';
import { TEST_VOTES } from './campaign-votes';

/** The two campaigns and the web tests' votes, written with the API's own schema (jest global setup only). */
export async function seedCampaignTestVotes(db: Db): Promise<void> {
  await seedCampaigns(db);
  const codes = new Map((await db.select({ key: campaigns.key, serviceCode: campaigns.serviceCode }).from(campaigns)).map((c) => [c.key, c.serviceCode]));
  await db.insert(transactions).values(
    TEST_VOTES.map((vote) => {
      const processed = vote.processed ?? true;
      return {
        serviceCode: codes.get(vote.campaignKey) ?? '',
        phoneNumber: vote.phoneNumber,
        network: 'MTN',
        amount: 500,
        isComplete: processed,
        isDeleted: !processed,
        callbackTime: new Date(Date.parse(vote.createdAt) + 5_000),
        messageStatuses: processed ? 'Delivered' : 'Payment failed',
        campaignKey: vote.campaignKey,
        round: vote.round,
        teamName: vote.teamName,
        teamName2: vote.teamName2 ?? null,
        createdAt: new Date(vote.createdAt),
      };
    }),
  );
}

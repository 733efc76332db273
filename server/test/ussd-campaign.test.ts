import { and, eq } from 'drizzle-orm';
import { campaigns, categories, serviceCodes, transactions } from '../src/db/schema';
import { AFCON_2024, WORLD_CUP_2022 } from '../src/db/seed-data';
import { seedCampaigns } from '../src/db/seed-votes';
import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
  await seedCampaigns(world.db);
});
afterAll(() => world.close());
afterEach(() => jest.restoreAllMocks());

let sessions = 0;
/** One hop of a session on a campaign's code. */
const hop = (sessionId: string, text: string, phoneNumber: string, serviceCode = WORLD_CUP_2022.serviceCode) =>
  world.hop({ sessionId, serviceCode, phoneNumber, networkCode: '64101', text });
/** A whole session up to `text`, answering the last hop. */
const vote = async (text: string, phoneNumber: string, serviceCode = WORLD_CUP_2022.serviceCode) => {
  sessions += 1;
  const sessionId = `vote-${sessions}`;
  const answers = text.split('*');
  let body = '';
  for (let i = 0; i <= answers.length; i += 1) body = (await hop(sessionId, answers.slice(0, i).join('*'), phoneNumber, serviceCode)).body;
  return { sessionId, body };
};
const votesOf = (phoneNumber: string) => world.db.select().from(transactions).where(eq(transactions.phoneNumber, phoneNumber));
const setCap = (cap: number | null) => world.db.update(campaigns).set({ votesPerRoundCap: cap }).where(eq(campaigns.key, WORLD_CUP_2022.key));

describe('votes by USSD', () => {
  it('records a general vote for the picked team at the default price', async () => {
    const collect = jest.spyOn(world.app.providers.payment, 'collect');
    const { body } = await vote('1*3*1', '256701000001');
    expect(body).toBe('END Approve the payment of UGX 500 on your phone to record your vote for Brazil.');
    expect(await votesOf('256701000001')).toEqual([
      expect.objectContaining({ serviceCode: WORLD_CUP_2022.serviceCode, network: 'Airtel', campaignKey: 'world-cup-2022', round: 'general', teamName: 'Brazil', teamName2: null, amount: 500, categoryId: null, isComplete: false, isDeleted: false }),
    ]);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('records a week vote for a game: the winner picked, the opponent second', async () => {
    // Week 2, the round of 16: its second game, then its second team.
    const { body } = await vote('2*2', '256701000002');
    expect(body).toBe('CON Who wins Argentina vs Australia?\n1. Argentina\n2. Australia\n0. Back');
    await vote('2*2*2*1', '256701000002');
    expect(await votesOf('256701000002')).toEqual([expect.objectContaining({ round: 'week2', teamName: 'Australia', teamName2: 'Argentina' })]);
  });

  it('records a final vote between the finalists, and an AFCON vote without a round question', async () => {
    await vote('5*2*1', '256701000003');
    await vote('1*1', '256701000003', AFCON_2024.serviceCode);
    const rows = await votesOf('256701000003');
    expect(rows.map((r) => [r.campaignKey, r.round, r.teamName, r.teamName2]).sort()).toEqual([
      ['afcon-2024', 'general', 'Ivory Coast', null],
      ['world-cup-2022', 'final', 'France', 'Argentina'],
    ]);
  });

  it('prices a vote at the cheapest level of the campaign code\'s category when the code is registered', async () => {
    const [category] = await world.db.insert(categories).values({ name: 'Afcon votes', vip: 2000, ordinary: 700, kibimba: 1500 }).returning();
    const [code] = await world.db.insert(serviceCodes).values({ name: AFCON_2024.serviceCode, categoryId: category.id }).returning();
    try {
      const { body } = await vote('2', '256701000004', AFCON_2024.serviceCode);
      expect(body).toBe('CON Vote Nigeria (General) for UGX 700?\n1. Confirm\n2. Cancel');
      await vote('2*1', '256701000004', AFCON_2024.serviceCode);
      expect(await votesOf('256701000004')).toEqual([expect.objectContaining({ amount: 700, categoryId: category.id, categoryLevel: 'ordinary', teamName: 'Nigeria' })]);
    } finally {
      await world.db.delete(serviceCodes).where(eq(serviceCodes.id, code.id));
    }
  });

  it('caps votes per number per round: processed and pending count, failed do not; past the cap nothing is charged', async () => {
    await setCap(2);
    try {
      const phone = '256701000005';
      const collect = jest.spyOn(world.app.providers.payment, 'collect');
      await vote('2*1*1*1', phone);
      const second = await vote('2*3*1*1', phone);
      // The network repeating the confirming hop of the vote that reached the cap gets the same answer.
      expect((await hop(second.sessionId, '2*3*1*1', phone)).body).toBe(second.body);
      expect(second.body).toMatch(/^END Approve the payment of UGX 500/);
      expect(collect).toHaveBeenCalledTimes(2);

      // Past the cap: the round question ends the session; other rounds stay open.
      expect((await vote('2', phone)).body).toBe('END You have cast your 2 votes for Week 2. Thank you for voting!');
      expect((await vote('3', phone)).body).toMatch(/^CON Week 3: choose a game/);
      expect(collect).toHaveBeenCalledTimes(2);

      // A session that reached the confirm question before the cap filled up is refused at confirm.
      const late = await vote('2*4*1', '256701000006');
      await vote('2*1*1*1', '256701000006');
      await vote('2*2*1*1', '256701000006');
      expect((await hop(late.sessionId, '2*4*1*1', '256701000006')).body).toBe('END You have cast your 2 votes for Week 2. Thank you for voting!');
      expect(await world.db.select().from(transactions).where(eq(transactions.sessionId, late.sessionId))).toHaveLength(0);

      // A failed payment gives the vote back.
      await world.db.update(transactions).set({ isDeleted: true }).where(and(eq(transactions.phoneNumber, phone), eq(transactions.teamName, 'Netherlands')));
      expect((await vote('2', phone)).body).toMatch(/^CON Week 2: choose a game/);
      expect((await votesOf(phone)).filter((r) => r.round === 'week2')).toHaveLength(2);
    } finally {
      await setCap(null);
    }
  });
});

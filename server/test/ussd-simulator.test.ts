import { like } from 'drizzle-orm';
import { contents, transactions } from '../src/db/schema';
import { DEMO_CAMPAIGNS } from '../src/db/seed-data';
import { seedCampaigns } from '../src/db/seed-votes';
import { checkLocalUrl, customerFor, playCustomer, randomSource, type Hop } from '../../scripts/simulator';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(60_000);

let world: TestWorld;
let code: string;
beforeAll(async () => {
  world = await buildTestWorld();
  await seedCampaigns(world.db);
  const catalogue = await createCatalogue(world, null, { ordinary: 1000, vip: 6000 });
  code = catalogue.code.name;
  await world.db.insert(contents).values(['ordinary', 'vip'].map((categoryLevel) => ({ categoryId: catalogue.category.id, categoryLevel, message: `${categoryLevel} ticket`, active: true })));
});
afterAll(() => world.close());

const hop: Hop = async (form) => (await world.hop(form)).body;

describe('npm run simulate', () => {
  it('plays customers who buy, vote, cancel and mistype; every confirmation is one call', async () => {
    const random = randomSource(42);
    const codes = [code, ...DEMO_CAMPAIGNS.map((c) => c.serviceCode)];
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 60; i += 1) {
      const { outcome } = await playCustomer(hop, customerFor(random, codes[i % codes.length], `sim-test-${i}`), random);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    expect(outcomes.error).toBeUndefined();
    expect(outcomes.confirmed).toBeGreaterThan(30);
    expect(outcomes.cancelled).toBeGreaterThan(0);
    const calls = await world.db.select().from(transactions).where(like(transactions.sessionId, 'sim-test-%'));
    expect(calls).toHaveLength(outcomes.confirmed);
    expect(calls.filter((c) => c.campaignKey).length).toBeGreaterThan(0);
  });

  it('refuses any host but this machine', () => {
    expect(checkLocalUrl('http://127.0.0.1:3000').port).toBe('3000');
    expect(checkLocalUrl('http://localhost:4301').hostname).toBe('localhost');
    for (const url of ['http://example.com', 'http://10.0.0.5:3000', 'http://127.0.0.1.nip.io', 'ftp://127.0.0.1']) expect(() => checkLocalUrl(url)).toThrow();
  });
});

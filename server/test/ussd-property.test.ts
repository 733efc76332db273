import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { CATEGORY_LEVELS } from '../../src/domain/category-levels';
import { isUssdReply } from './ussd-reply';
import { campaigns, contents, transactionEvents } from '../src/db/schema';
import { WORLD_CUP_2022 } from '../src/db/seed-data';
import { seedCampaigns } from '../src/db/seed-votes';
import { ussdMenu, type UssdService } from '../src/ingestion/ussd-menu';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(120_000);

/** Answers a customer might type: menu numbers, paging, and anything else. */
const answer = fc.oneof(fc.constantFrom('1', '2', '3', '5', '9', '0', '98', '99', '', ' 1 '), fc.string({ maxLength: 6 }), fc.nat(120).map(String));
const answers = fc.array(answer, { maxLength: 8 }).map((list) => list.join('*'));
/** Names from a catalogue, any characters at all. */
const name = fc.string({ minLength: 1, maxLength: 80, unit: 'binary' });

const service: fc.Arbitrary<UssdService> = fc.oneof(
  fc.record({
    kind: fc.constant('catalogue' as const),
    categoryName: name,
    levels: fc.subarray([...CATEGORY_LEVELS]).chain((levels) =>
      fc.tuple(...levels.map(() => fc.integer({ min: 1, max: 10_000_000 }))).map((prices) => levels.map((level, i) => ({ level, price: prices[i] }))),
    ),
  }),
  fc.record({
    kind: fc.constant('campaign' as const),
    name,
    closed: fc.boolean(),
    rounds: fc.array(
      fc.record({
        key: fc.constantFrom('general', 'week2', 'final', 'r1'),
        label: name,
        kind: fc.constantFrom('teams' as const, 'games' as const),
        games: fc.array(fc.tuple(name, name), { maxLength: 40 }),
        open: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
    teams: fc.array(name, { maxLength: 40 }),
    price: fc.integer({ min: 1, max: 10_000_000 }),
    cap: fc.option(fc.nat(3)),
    votesCast: fc.dictionary(fc.constantFrom('general', 'week2', 'final'), fc.nat(4)),
  }),
);

describe('every USSD reply', () => {
  it('is at most 182 GSM-7 characters, CON or END, for any catalogue and any answers', () => {
    fc.assert(
      fc.property(fc.option(service), answers, (data, text) => {
        const { reply, action } = ussdMenu(data, text);
        expect(isUssdReply(reply)).toBe(true);
        expect(reply).toMatch(/^(CON|END) /);
        if (action) expect(reply.startsWith('END ')).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  describe('over HTTP', () => {
    let world: TestWorld;
    let code: string;
    beforeAll(async () => {
      world = await buildTestWorld();
      await seedCampaigns(world.db);
      await world.db.update(campaigns).set({ votesPerRoundCap: 1 }).where(eq(campaigns.key, WORLD_CUP_2022.key));
      const catalogue = await createCatalogue(world, null, { ordinary: 1000, vip: 6000 });
      code = catalogue.code.name;
      await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'vip', message: 'VIP', active: true });
    });
    afterAll(() => world.close());

    it('is never a 5xx, and a repeated hop answers the same and records one event', async () => {
      let session = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(code, WORLD_CUP_2022.serviceCode, '*284*24#', '*1*1#'),
          answers,
          fc.constantFrom('256772000001', '256772000002', '+256 772 000 003'),
          async (serviceCode, text, phoneNumber) => {
            session += 1;
            const sessionId = `prop-${session}`;
            const send = () => world.hop({ sessionId, serviceCode, phoneNumber, text });
            const first = await send();
            expect(first.statusCode).toBe(200);
            expect(isUssdReply(first.body)).toBe(true);
            const again = await send();
            expect(again.body).toBe(first.body);
            const hops = await world.db.select().from(transactionEvents).where(eq(transactionEvents.sessionId, sessionId));
            expect(hops).toHaveLength(1);
          },
        ),
        { numRuns: 150 },
      );
    });

    it('answers any malformed form with a 4xx, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom('sessionId', 'serviceCode', 'phoneNumber', 'networkCode', 'text', 'other'), fc.oneof(fc.string({ maxLength: 600 }), fc.integer(), fc.constant(null))), async (payload) => {
          const response = await world.hop(payload);
          expect(response.statusCode).toBeLessThan(500);
          if (response.statusCode === 200) expect(isUssdReply(response.body)).toBe(true);
        }),
        { numRuns: 150 },
      );
    });
  });
});

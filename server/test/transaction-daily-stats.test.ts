import { eq, inArray, sql } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { rowsOf } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { dailyStatsCounted, dailyStatsKept } from './recount-fixtures';
import { createCatalogue, insertMany, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let codeA: string;
let codeB: string;

beforeAll(async () => {
  world = await buildTestWorld();
  codeA = (await createCatalogue(world, null)).code.name;
  codeB = (await createCatalogue(world, null)).code.name;
});
afterAll(() => world.close());

async function rows(query: ReturnType<typeof sql>) {
  return rowsOf(world, query);
}
const kept = () => dailyStatsKept(world, [codeA, codeB]);
const counted = () => dailyStatsCounted(world, [codeA, codeB]);

describe('transaction_daily_stats (kept by triggers on transactions)', () => {
  it('counts inserted calls by Kampala day and hour, level and network, per status', async () => {
    await insertTransactions(world, codeA, [
      { createdAt: new Date('2024-07-15T05:30:00Z'), isComplete: true, categoryLevel: 'vip', amount: 20000 },
      // 00:30 on the 16th in Kampala.
      { createdAt: new Date('2024-07-15T21:30:00Z'), isDeleted: true, categoryLevel: null, amount: null, network: 'Airtel' },
      { createdAt: new Date('2024-07-15T20:59:59Z'), categoryLevel: 'ordinary', amount: 10000 },
    ]);
    await insertMany(world, codeB, 500, '2024-07-15T00:00:00Z', null);
    expect(await kept()).toEqual(await counted());
    const day16 = await rows(sql`select sum(calls)::int as n from transaction_daily_stats where service_code = ${codeA} and day = '2024-07-16' and dimension = 'network'`);
    expect(day16[0].n).toBe(1);
  });

  it('moves counts when a call changes status, day, level or code, and ignores other changes', async () => {
    const [pending] = await insertTransactions(world, codeA, [{ createdAt: new Date('2024-07-15T09:00:00Z'), categoryLevel: 'vip', amount: 20000 }]);
    const before = await kept();
    await world.db.update(transactions).set({ isResolved: true, messageStatuses: 'Success' }).where(eq(transactions.id, pending.id));
    expect(await kept()).toEqual(before);

    await world.db.update(transactions).set({ isComplete: true }).where(eq(transactions.id, pending.id));
    await world.db.update(transactions).set({ categoryLevel: 'ordinary', amount: 10000 }).where(eq(transactions.id, pending.id));
    await world.db.update(transactions).set({ createdAt: new Date('2024-07-20T09:00:00Z') }).where(eq(transactions.id, pending.id));
    await world.db.update(transactions).set({ serviceCode: codeB }).where(eq(transactions.id, pending.id));
    // Many rows in one statement, some moving and some not.
    await world.db.execute(sql`update transactions set is_deleted = true where service_code = ${codeB} and not is_complete and phone_number like '%5'`);
    expect(await kept()).toEqual(await counted());
  });

  it('takes deleted calls out', async () => {
    const gone = await rows(sql`select id from transactions where service_code = ${codeB} limit 100`);
    await world.db.delete(transactions).where(inArray(transactions.id, gone.map((r) => String(r.id))));
    expect(await kept()).toEqual(await counted());
  });
});

import { eq, inArray, sql } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
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

type Row = Record<string, string | number | boolean>;

async function rows(query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await world.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The daily counts as the triggers keep them, zero rows left out. */
const kept = () =>
  rows(sql`
    select service_code, day::text, dimension, key, is_complete, is_deleted, calls, amount::bigint::text as amount
    from transaction_daily_stats where calls <> 0 and service_code in (${codeA}, ${codeB})
    order by 1, 2, 3, 4, 5, 6`);

/** The same counts computed from the calls themselves. */
const counted = () =>
  rows(sql`
    select t.service_code, (t.created_at at time zone 'Africa/Kampala')::date::text as day, d.dimension, d.key,
           t.is_complete, t.is_deleted, count(*)::int as calls, coalesce(sum(t.amount), 0)::bigint::text as amount
    from transactions t
    cross join lateral (values
      ('hour', extract(hour from t.created_at at time zone 'Africa/Kampala')::int::text),
      ('level', coalesce(t.category_level, '')),
      ('network', t.network)) as d(dimension, key)
    where t.service_code in (${codeA}, ${codeB})
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6`);

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

import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { categories, serviceCodes, transactions } from '../src/db/schema';
import type { TestWorld } from './helpers';

let counter = 0;
const unique = () => `${++counter}${crypto.randomUUID().slice(0, 4)}`;

/** An agent's category with prices and a service code under it. */
export async function createCatalogue(world: TestWorld, agentId: string | null, prices: { ordinary?: number; vip?: number } = { ordinary: 10000, vip: 20000 }) {
  const [category] = await world.db
    .insert(categories)
    .values({ name: `Category ${unique()}`, userId: agentId, ...prices })
    .returning();
  const [code] = await world.db
    .insert(serviceCodes)
    .values({ name: `*${100 + (counter % 800)}*${unique().replace(/\D/g, '').slice(0, 4) || '1'}#`, categoryId: category.id })
    .returning();
  return { category, code };
}

type TxValues = Partial<typeof transactions.$inferInsert>;

/** Inserts calls straight into the table, as the network and the payment provider would have made them. */
export async function insertTransactions(world: TestWorld, serviceCode: string, rows: TxValues[]) {
  if (rows.length === 0) return [];
  return world.db
    .insert(transactions)
    .values(rows.map((r) => ({ serviceCode, phoneNumber: '256770000001', network: 'MTN', ...r })))
    .returning();
}

/** Many calls in one statement: `n` rows spread over a day, some sharing one instant. */
export async function insertMany(world: TestWorld, serviceCode: string, n: number, dayStartIso: string, categoryId: string | null) {
  await world.db.execute(sql`
    insert into transactions (service_code, phone_number, network, category_id, category_level, amount, is_complete, is_deleted, created_at)
    select ${serviceCode}, '2567' || lpad((i % 100000000)::text, 8, '0'), case when i % 2 = 0 then 'MTN' else 'Airtel' end,
           ${categoryId}::uuid, 'ordinary', 1000, i % 3 = 0, i % 3 = 1,
           ${dayStartIso}::timestamptz + ((i / 7) * interval '1 second')
    from generate_series(1, ${n}) as i`);
}

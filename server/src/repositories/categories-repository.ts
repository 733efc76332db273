import { and, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { CATEGORY_LEVELS, type CategoryLevel } from '../../../src/domain/category-levels';
import type { Category, LevelPrices } from '../../../src/domain/entities';
import type { CategoryInput } from '../../../src/domain/schemas/catalogue';
import type { DbOrTx } from '../db/client';
import { categories, users } from '../db/schema';
import { isUuid } from '../../../src/domain/uuid';

export type CategoryRow = typeof categories.$inferSelect;
type CategoryValues = Omit<typeof categories.$inferInsert, 'id' | 'createdAt'>;

const listColumns = { category: categories, userName: users.userName };

export function toCategory(row: CategoryRow, userName: string | null): Category {
  const prices: LevelPrices = {};
  for (const level of CATEGORY_LEVELS) prices[level] = row[level];
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    user: row.userId ? { _id: row.userId, userName: userName ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
    ...prices,
  };
}

/** The form's fields as the table stores them; prices are whole shillings. */
export function categoryValues(input: CategoryInput): CategoryValues {
  const prices = {} as Record<CategoryLevel, number | null>;
  for (const level of CATEGORY_LEVELS) {
    const price = input[level];
    prices[level] = price === undefined || price === null ? null : Math.round(price);
  }
  return { name: input.name, description: input.description || null, userId: input.user, ...prices };
}

/** The stored category as form input, so a PATCH may send only what changes. */
export function categoryInputOf(row: CategoryRow): Record<string, unknown> {
  const prices = Object.fromEntries(CATEGORY_LEVELS.map((level) => [level, row[level]]));
  return { name: row.name, description: row.description, user: row.userId ?? '0', ...prices };
}

export function categoriesRepository(db: DbOrTx) {
  return {
    async list(options: { offset: number; limit: number; ownerId?: string }) {
      const where: SQL | undefined = options.ownerId ? eq(categories.userId, options.ownerId) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        db
          .select(listColumns)
          .from(categories)
          .leftJoin(users, eq(categories.userId, users.id))
          .where(where)
          .orderBy(desc(categories.createdAt), desc(categories.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ total: count() }).from(categories).where(where),
      ]);
      return { docs: rows.map((r) => toCategory(r.category, r.userName)), total };
    },

    async findById(id: string): Promise<CategoryRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      return row;
    },

    /** The category as the API answers it; `lock` holds its row until the transaction ends (its state before a write). */
    async findView(id: string, options: { lock?: boolean } = {}): Promise<Category | undefined> {
      const query = db.select(listColumns).from(categories).leftJoin(users, eq(categories.userId, users.id)).where(eq(categories.id, id));
      const [row] = options.lock ? await query.for('update', { of: categories }) : await query;
      return row ? toCategory(row.category, row.userName) : undefined;
    },

    /** Another category with this name, compared without case like the unique index. */
    async nameTaken(name: string, exceptId?: string) {
      const sameName = sql`lower(${categories.name}) = lower(${name})`;
      const [row] = await db
        .select({ id: categories.id })
        .from(categories)
        .where(exceptId ? and(sameName, ne(categories.id, exceptId)) : sameName)
        .limit(1);
      return Boolean(row);
    },

    async create(values: CategoryValues) {
      const [row] = await db.insert(categories).values(values).returning();
      return row;
    },

    async update(id: string, values: Partial<CategoryValues>) {
      const [row] = await db.update(categories).set(values).where(eq(categories.id, id)).returning();
      return row;
    },

    /** An agent that may own a category: the form's agent select lists agents only. */
    async findAgent(id: string) {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, id)).limit(1);
      return row?.role === 'agent' ? row : undefined;
    },
  };
}

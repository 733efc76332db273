import { and, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { ServiceCode } from '../../../src/domain/entities';
import type { ServiceCodeToday } from '../../../src/domain/service-codes';
import type { DbOrTx } from '../db/client';
import { categories, serviceCodes, transactionDailyStats, users } from '../db/schema';
import { isUuid } from '../../../src/domain/uuid';

export type ServiceCodeRow = typeof serviceCodes.$inferSelect;

type ServiceCodeValues = Omit<typeof serviceCodes.$inferInsert, 'id' | 'createdAt'>;

const viewColumns = {
  code: serviceCodes,
  categoryName: categories.name,
  ownerId: categories.userId,
  ownerName: users.userName,
};

type ViewRow = { code: ServiceCodeRow; categoryName: string | null; ownerId: string | null; ownerName: string | null };

function toServiceCode(row: ViewRow): ServiceCode {
  const { code } = row;
  return {
    _id: code.id,
    name: code.name,
    description: code.description,
    category:
      code.categoryId && row.categoryName !== null
        ? { _id: code.categoryId, name: row.categoryName, user: row.ownerId ? { _id: row.ownerId, userName: row.ownerName ?? '' } : null }
        : null,
    createdAt: code.createdAt.toISOString(),
  };
}

export function serviceCodesRepository(db: DbOrTx) {
  const view = () =>
    db
      .select(viewColumns)
      .from(serviceCodes)
      .leftJoin(categories, eq(serviceCodes.categoryId, categories.id))
      .leftJoin(users, eq(categories.userId, users.id));

  return {
    async list(options: { offset: number; limit: number; ownerId?: string }) {
      const where: SQL | undefined = options.ownerId ? eq(categories.userId, options.ownerId) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        view().where(where).orderBy(desc(serviceCodes.createdAt), desc(serviceCodes.id)).limit(options.limit).offset(options.offset),
        db.select({ total: count() }).from(serviceCodes).leftJoin(categories, eq(serviceCodes.categoryId, categories.id)).where(where),
      ]);
      return { docs: rows.map(toServiceCode), total };
    },

    async findById(id: string): Promise<ServiceCodeRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(serviceCodes).where(eq(serviceCodes.id, id)).limit(1);
      return row;
    },

    /** The code as the API answers it; `lock` holds its row until the transaction ends (its state before a write). */
    async findView(id: string, options: { lock?: boolean } = {}): Promise<ServiceCode | undefined> {
      const query = view().where(eq(serviceCodes.id, id));
      const [row] = options.lock ? await query.for('update', { of: serviceCodes }) : await query;
      return row ? toServiceCode(row) : undefined;
    },

    async nameTaken(name: string, exceptId?: string) {
      const same = eq(serviceCodes.name, name);
      const [row] = await db
        .select({ id: serviceCodes.id })
        .from(serviceCodes)
        .where(exceptId ? and(same, ne(serviceCodes.id, exceptId)) : same)
        .limit(1);
      return Boolean(row);
    },

    async create(values: ServiceCodeValues) {
      const [row] = await db.insert(serviceCodes).values(values).returning();
      return row;
    },

    async update(id: string, values: Partial<ServiceCodeValues>) {
      const [row] = await db.update(serviceCodes).set(values).where(eq(serviceCodes.id, id)).returning();
      return row;
    },

    /**
     * Every code (or an agent's) with its category and its calls and failed calls on `day`, from
     * the daily counts; in no particular order.
     */
    async dayFigures(day: string, ownerId?: string): Promise<ServiceCodeToday[]> {
      const d = transactionDailyStats;
      const rows = await db
        .select({
          id: serviceCodes.id,
          name: serviceCodes.name,
          categoryId: categories.id,
          categoryName: categories.name,
          calls: sql<number>`coalesce(sum(${d.calls}), 0)::int`,
          failed: sql<number>`coalesce(sum(${d.calls}) filter (where ${d.isDeleted} and not ${d.isComplete}), 0)::int`,
        })
        .from(serviceCodes)
        .leftJoin(categories, eq(serviceCodes.categoryId, categories.id))
        .leftJoin(d, and(eq(d.serviceCode, serviceCodes.name), eq(d.day, day), eq(d.dimension, 'network')))
        .where(ownerId ? eq(categories.userId, ownerId) : undefined)
        .groupBy(serviceCodes.id, categories.id);
      return rows.map((row) => {
        const [calls, failed] = [Number(row.calls), Number(row.failed)];
        return {
          _id: row.id,
          name: row.name,
          category: row.categoryId && row.categoryName !== null ? { _id: row.categoryId, name: row.categoryName } : null,
          calls,
          failed,
          failedShare: calls > 0 ? Math.round((failed / calls) * 10_000) / 10_000 : 0,
        };
      });
    },

    /** The service codes under categories an agent owns. */
    async namesOwnedBy(userId: string): Promise<string[]> {
      const rows = await db
        .select({ name: serviceCodes.name })
        .from(serviceCodes)
        .innerJoin(categories, eq(serviceCodes.categoryId, categories.id))
        .where(eq(categories.userId, userId));
      return rows.map((r) => r.name);
    },

    /** A code by its dialled name with its category (prices), for the USSD menu. */
    async findWithCategory(name: string) {
      const [row] = await db
        .select({ code: serviceCodes, category: categories })
        .from(serviceCodes)
        .leftJoin(categories, eq(serviceCodes.categoryId, categories.id))
        .where(eq(serviceCodes.name, name))
        .limit(1);
      return row;
    },
  };
}

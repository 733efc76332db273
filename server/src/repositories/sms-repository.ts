import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { CategoryLevel } from '../../../src/domain/category-levels';
import type { SmsRecord, SmsStatus } from '../../../src/domain/entities';
import type { DbOrTx } from '../db/client';
import { smsMessages, users } from '../db/schema';

export type SmsRow = typeof smsMessages.$inferSelect;

function toSmsRecord(row: SmsRow, userName: string | null): SmsRecord {
  return {
    _id: row.id,
    user: row.userId ? { _id: row.userId, userName: userName ?? '' } : null,
    phoneNumber: row.phoneNumber,
    message: row.message,
    categoryLevel: row.categoryLevel as CategoryLevel | null,
    status: row.status as SmsStatus,
    createdAt: row.createdAt.toISOString(),
  };
}

export function smsRepository(db: DbOrTx) {
  return {
    async list(options: { offset: number; limit: number; userId?: string }) {
      const where: SQL | undefined = options.userId ? eq(smsMessages.userId, options.userId) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({ sms: smsMessages, userName: users.userName })
          .from(smsMessages)
          .leftJoin(users, eq(smsMessages.userId, users.id))
          .where(where)
          .orderBy(desc(smsMessages.createdAt), desc(smsMessages.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ total: count() }).from(smsMessages).where(where),
      ]);
      return { docs: rows.map((r) => toSmsRecord(r.sms, r.userName)), total };
    },

    async findView(id: string) {
      const [row] = await db
        .select({ sms: smsMessages, userName: users.userName })
        .from(smsMessages)
        .leftJoin(users, eq(smsMessages.userId, users.id))
        .where(eq(smsMessages.id, id));
      return row ? toSmsRecord(row.sms, row.userName) : undefined;
    },

    async findByProviderRef(providerRef: string) {
      const [row] = await db.select().from(smsMessages).where(eq(smsMessages.providerRef, providerRef)).limit(1);
      return row;
    },

    async create(values: Omit<typeof smsMessages.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>) {
      const [row] = await db.insert(smsMessages).values(values).returning();
      return row;
    },

    async update(id: string, values: Partial<Pick<SmsRow, 'status' | 'providerRef' | 'failureReason'>>) {
      const [row] = await db
        .update(smsMessages)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(smsMessages.id, id))
        .returning();
      return row;
    },
  };
}

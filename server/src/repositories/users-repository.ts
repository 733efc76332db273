import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ServiceCodeRef, User } from '../../../src/domain/entities';
import { readsEveryCode, type Role } from '../../../src/domain/roles';
import type { DbOrTx } from '../db/client';
import { categories, serviceCodes, users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

export function toUser(row: UserRow): User {
  return {
    _id: row.id,
    userName: row.userName,
    role: row.role as Role,
    email: row.email,
    isAfcon: row.isAfcon,
    createdAt: row.createdAt.toISOString(),
    disabled: row.disabledAt !== null,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    twoFactorEnabled: row.twoFactorEnabledAt !== null,
  };
}

export function usersRepository(db: DbOrTx) {
  return {
    /** `lock` holds the row until the transaction ends (its state before a write). */
    async findById(id: string, options: { lock?: boolean } = {}) {
      const query = db.select().from(users).where(eq(users.id, id)).limit(1);
      const [row] = options.lock ? await query.for('update') : await query;
      return row;
    },

    async findByUserName(userName: string) {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.userName}) = lower(${userName})`)
        .limit(1);
      return row;
    },

    async findByEmail(email: string) {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1);
      return row;
    },

    async list(offset: number, limit: number) {
      const [rows, [{ total }]] = await Promise.all([
        db.select().from(users).orderBy(desc(users.createdAt), asc(users.userName)).limit(limit).offset(offset),
        db.select({ total: count() }).from(users),
      ]);
      return { rows, total };
    },

    async create(values: typeof users.$inferInsert) {
      const [row] = await db.insert(users).values(values).returning();
      return row;
    },

    async update(id: string, values: Partial<typeof users.$inferInsert>) {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    /** Stamps a successful sign-in; not an edit of the account, so `updatedAt` stays. */
    async markSignedIn(id: string) {
      await db.update(users).set({ lastSignInAt: sql`now()` }).where(eq(users.id, id));
    },

    async count() {
      const [{ total }] = await db.select({ total: count() }).from(users);
      return total;
    },

    /** The service codes a user works with: an agent's own, or every code for a manager or customer care. */
    async serviceCodesFor(user: Pick<UserRow, 'id' | 'role'>): Promise<ServiceCodeRef[]> {
      const query = db
        .select({ _id: serviceCodes.id, name: serviceCodes.name })
        .from(serviceCodes)
        .innerJoin(categories, eq(serviceCodes.categoryId, categories.id))
        .orderBy(asc(serviceCodes.createdAt), asc(serviceCodes.name))
        .limit(100);
      if (readsEveryCode(user.role)) return query;
      return query.where(eq(categories.userId, user.id));
    },

    async userNamesByIds(ids: string[]) {
      if (ids.length === 0) return new Map<string, string>();
      const rows = await db.select({ id: users.id, userName: users.userName }).from(users).where(inArray(users.id, ids));
      return new Map(rows.map((r) => [r.id, r.userName]));
    },
  };
}

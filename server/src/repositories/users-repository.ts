import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
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

    /** Keeps a new sealed TOTP secret while enrolment is under way; an enrolled account keeps its own. */
    async startTwoFactorSetup(id: string, sealedSecret: string) {
      const [row] = await db
        .update(users)
        .set({ twoFactorSecret: sealedSecret, twoFactorLastStep: null, updatedAt: sql`now()` })
        .where(and(eq(users.id, id), isNull(users.twoFactorEnabledAt)))
        .returning();
      return row;
    },

    /** Completes enrolment with the step of the code that proved it and the recovery codes' hashes. */
    async enableTwoFactor(id: string, step: number, recoveryHashes: string[]) {
      const [row] = await db
        .update(users)
        .set({ twoFactorEnabledAt: sql`now()`, twoFactorLastStep: step, twoFactorRecoveryHashes: recoveryHashes, updatedAt: sql`now()` })
        .where(and(eq(users.id, id), isNull(users.twoFactorEnabledAt), isNotNull(users.twoFactorSecret)))
        .returning();
      return row;
    },

    /** Takes a code's time step once: false when it or a later one was taken already (a replayed code). */
    async takeTwoFactorStep(id: string, step: number): Promise<boolean> {
      const taken = await db
        .update(users)
        .set({ twoFactorLastStep: step })
        .where(and(eq(users.id, id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
        .returning({ id: users.id });
      return taken.length > 0;
    },

    /** Uses up one recovery code by its hash: false when it is not (or no longer) among them. */
    async useRecoveryCode(id: string, hash: string): Promise<boolean> {
      const used = await db
        .update(users)
        .set({ twoFactorRecoveryHashes: sql`array_remove(${users.twoFactorRecoveryHashes}, ${hash})` })
        .where(and(eq(users.id, id), sql`${hash} = any(${users.twoFactorRecoveryHashes})`))
        .returning({ id: users.id });
      return used.length > 0;
    },

    /** Turns two-factor sign-in off: secret, recovery codes and the last step go. */
    async clearTwoFactor(id: string) {
      const [row] = await db
        .update(users)
        .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, twoFactorRecoveryHashes: [], updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
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

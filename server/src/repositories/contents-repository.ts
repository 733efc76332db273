import { and, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import type { CategoryLevel } from '../../../src/domain/category-levels';
import type { Content } from '../../../src/domain/entities';
import type { DbOrTx } from '../db/client';
import { categories, contents, users } from '../db/schema';
import { isUuid } from '../../../src/domain/uuid';

export type ContentRow = typeof contents.$inferSelect;
export type ContentValues = Omit<typeof contents.$inferInsert, 'id' | 'createdAt'>;

const viewColumns = { content: contents, categoryName: categories.name, createdByName: users.userName };

function toContent(row: { content: ContentRow; categoryName: string | null; createdByName: string | null }): Content {
  const { content } = row;
  return {
    _id: content.id,
    name: content.name,
    message: content.message,
    description: content.description,
    categoryLevel: content.categoryLevel as CategoryLevel,
    category: row.categoryName === null ? null : { _id: content.categoryId, name: row.categoryName },
    createdBy: content.createdById ? { _id: content.createdById, userName: row.createdByName ?? '' } : null,
    active: content.active,
    createdAt: content.createdAt.toISOString(),
  };
}

export function contentsRepository(db: DbOrTx) {
  const view = () =>
    db
      .select(viewColumns)
      .from(contents)
      .leftJoin(categories, eq(contents.categoryId, categories.id))
      .leftJoin(users, eq(contents.createdById, users.id));

  /**
   * Saves a content; when it is active, the other active one of its category and level steps down
   * first. Run it in a transaction (the route's, with its audit entry). Answers the saved row and the
   * ids of the contents that stepped down.
   */
  async function write(values: ContentValues, id?: string) {
    let steppedDown: string[] = [];
    if (values.active) {
      const sameSlot = and(eq(contents.categoryId, values.categoryId), eq(contents.categoryLevel, values.categoryLevel), eq(contents.active, true));
      const down = await db
        .update(contents)
        .set({ active: false })
        .where(id ? and(sameSlot, ne(contents.id, id)) : sameSlot)
        .returning({ id: contents.id });
      steppedDown = down.map((row) => row.id);
    }
    const [row] = id ? await db.update(contents).set(values).where(eq(contents.id, id)).returning() : await db.insert(contents).values(values).returning();
    return { row, steppedDown };
  }

  return {
    async list(options: { offset: number; limit: number; ownerId?: string }) {
      const where: SQL | undefined = options.ownerId ? eq(categories.userId, options.ownerId) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        view().where(where).orderBy(desc(contents.createdAt), desc(contents.id)).limit(options.limit).offset(options.offset),
        db.select({ total: count() }).from(contents).innerJoin(categories, eq(contents.categoryId, categories.id)).where(where),
      ]);
      return { docs: rows.map(toContent), total };
    },

    async findById(id: string): Promise<ContentRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(contents).where(eq(contents.id, id)).limit(1);
      return row;
    },

    /** The content as the API answers it; `lock` holds its row until the transaction ends (its state before a write). */
    async findView(id: string, options: { lock?: boolean } = {}): Promise<Content | undefined> {
      const query = view().where(eq(contents.id, id));
      const [row] = options.lock ? await query.for('update', { of: contents }) : await query;
      return row ? toContent(row) : undefined;
    },

    create: (values: ContentValues) => write(values),
    update: (id: string, values: ContentValues) => write(values, id),
  };
}

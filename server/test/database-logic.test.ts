import fs from 'node:fs';
import type { Database } from '../src/db/client';
import { openMemoryDatabase } from './memory-database';
import { DATABASE_LOGIC_FILE, databaseLogic } from '../scripts/database-logic';

jest.setTimeout(30_000);

let database: Database;
beforeAll(async () => {
  database = await openMemoryDatabase();
});
afterAll(() => database.close());

describe('server/src/db/database-logic.sql', () => {
  it('holds the functions and triggers the migrations leave, as they are now (npm run db:logic writes it)', async () => {
    const current = await databaseLogic(database.db);
    expect(current).toContain('CREATE TRIGGER transactions_stats_insert');
    expect(fs.readFileSync(DATABASE_LOGIC_FILE, 'utf8')).toBe(current);
  });
});

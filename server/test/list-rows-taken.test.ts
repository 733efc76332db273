import { PgDialect } from 'drizzle-orm/pg-core';
import { pageSql } from '../src/repositories/transaction-reads';

const text = (rows: Parameters<typeof pageSql>[1]) => new PgDialect().sqlToQuery(pageSql({ codes: ['*217*1#'], day: '2026-11-30' }, rows)).sql;

describe("a list statement's rows", () => {
  it('writes the limit into the text, with offset 0 for a first page and a parameter for a deeper one', () => {
    expect(text({ limit: 50, skips: false })).toMatch(/limit 50 offset 0\)/);
    expect(text({ limit: 100, skips: true })).toMatch(/limit 100 offset \$\d+\)/);
  });

  it('refuses a limit that is not a whole number in range, so nothing else is ever written into the SQL', () => {
    for (const limit of [0, -1, 1.5, Number.NaN, 1_000_001, '5; drop table transactions' as unknown as number]) {
      expect(() => text({ limit, skips: false })).toThrow(/a list takes a whole number of rows from 1 to 1000000/);
    }
  });
});

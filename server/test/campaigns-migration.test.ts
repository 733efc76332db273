import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

jest.setTimeout(120_000);

const MIGRATIONS = path.join(__dirname, '..', 'src', 'db', 'migrations');
const files = fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort();
const CAMPAIGNS_DATA = files.findIndex((f) => f.endsWith('_campaigns_data.sql'));

async function apply(db: PGlite, file: string) {
  for (const statement of fs.readFileSync(path.join(MIGRATIONS, file), 'utf8').split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
}

describe('the campaigns-as-data migration', () => {
  it('makes the campaigns made before it live, with round objects and World Cup 2022\'s real knock-out games, keeping their votes', async () => {
    const db = new PGlite();
    try {
      for (const file of files.slice(0, CAMPAIGNS_DATA)) await apply(db, file);
      await db.exec(`insert into campaigns (key, name, service_code, rounds, teams) values
        ('world-cup-2022', 'World Cup 2022', '*217*50#', '["general","week2","week3","week4","final"]', '["Argentina","France","Croatia","Morocco"]'),
        ('afcon-2024', 'AFCON 2024', '*284*24#', '["general"]', '["Ivory Coast","Nigeria"]')`);
      await db.exec(`insert into transactions (service_code, phone_number, network, amount, campaign_key, round, team_name, team_name2, is_complete)
        values ('*217*50#', '256700000001', 'MTN', 500, 'world-cup-2022', 'final', 'Argentina', 'France', true)`);
      await apply(db, files[CAMPAIGNS_DATA]);
      const { rows } = await db.query<{ key: string; status: string; rounds: { key: string; label: string; kind: string; games?: string[][] }[] }>('select key, status, rounds from campaigns order by key');
      expect(rows.map((r) => [r.key, r.status])).toEqual([['afcon-2024', 'live'], ['world-cup-2022', 'live']]);
      expect(rows[0].rounds).toEqual([{ key: 'general', label: 'General', kind: 'teams' }]);
      const worldCup = rows[1].rounds;
      expect(worldCup.map((r) => [r.key, r.label, r.kind, r.games?.length ?? 0])).toEqual([
        ['general', 'General', 'teams', 0],
        ['week2', 'Week 2', 'games', 8],
        ['week3', 'Week 3', 'games', 4],
        ['week4', 'Week 4', 'games', 2],
        ['final', 'Final', 'games', 1],
      ]);
      expect(worldCup[4].games).toEqual([['Argentina', 'France']]);
      const counted = await db.query<{ votes: number }>(`select sum(votes)::int as votes from campaign_round_totals where campaign_key = 'world-cup-2022' and round = 'final'`);
      expect(counted.rows[0].votes).toBe(1);
    } finally {
      await db.close();
    }
  });
});

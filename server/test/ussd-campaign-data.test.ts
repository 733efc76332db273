import { eq } from 'drizzle-orm';
import { campaigns, serviceCodes, transactions } from '../src/db/schema';
import { randomCode } from './catalogue-fixtures';
import { Client } from 'pg';
import { buildTestWorld, sleep, type TestWorld } from './helpers';

jest.setTimeout(60_000);

let world: TestWorld;
let admin: Record<string, string>;
beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
}, 60_000);
afterAll(() => world.close());

let made = 0;
/** A campaign created through the API on a code of its own: a teams round and a games round with real games. */
async function campaign(publish = true, rounds?: unknown[]) {
  made += 1;
  const serviceCode = randomCode();
  await world.db.insert(serviceCodes).values({ name: serviceCode });
  const created = await world.app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    headers: admin,
    payload: {
      key: `cecafa-${made}`,
      name: 'CECAFA Cup',
      serviceCode,
      teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda'],
      votePrice: 300,
      rounds: rounds ?? [
        { key: 'winner', label: 'Winner', kind: 'teams' },
        { key: 'semis', label: 'Semi-finals', kind: 'games', games: [['Uganda', 'Kenya'], ['Tanzania', 'Rwanda']] },
      ],
    },
  });
  expect(created.statusCode).toBe(201);
  const { key } = created.json().results;
  if (publish) expect((await world.app.inject({ method: 'POST', url: `/v1/campaigns/${key}/publish`, headers: admin })).statusCode).toBe(200);
  return { key, serviceCode };
}

const closeRound = async (key: string, round: string) =>
  expect((await world.app.inject({ method: 'POST', url: `/v1/campaigns/${key}/rounds/${round}/close`, headers: admin })).statusCode).toBe(200);

let sessions = 0;
/** A USSD session on a code: `answer(text)` sends the hop with every answer so far. */
function session(serviceCode: string, phoneNumber = '256702000001') {
  sessions += 1;
  const sessionId = `data-${sessions}`;
  return {
    sessionId,
    answer: async (text: string) => (await world.hop({ sessionId, serviceCode, phoneNumber, networkCode: '64110', text })).body,
    calls: () => world.db.select().from(transactions).where(eq(transactions.sessionId, sessionId)),
  };
}

describe('the USSD menu of a campaign made through the API', () => {
  it('offers its rounds, then a games round\'s own games, and records the vote at the campaign\'s price', async () => {
    const { key, serviceCode } = await campaign();
    const s = session(serviceCode);
    expect(await s.answer('')).toBe('CON CECAFA Cup: choose a round\n1. Winner\n2. Semi-finals');
    expect(await s.answer('2')).toBe('CON Semi-finals: choose a game\n1. Uganda vs Kenya\n2. Tanzania vs Rwanda\n0. Back');
    expect(await s.answer('2*1')).toBe('CON Who wins Uganda vs Kenya?\n1. Uganda\n2. Kenya\n0. Back');
    expect(await s.answer('2*1*2')).toBe('CON Vote Kenya (Semi-finals) for UGX 300?\n1. Confirm\n2. Cancel');
    expect(await s.answer('2*1*2*1')).toBe('END Approve the payment of UGX 300 on your phone to record your vote for Kenya.');
    expect(await s.calls()).toEqual([expect.objectContaining({ campaignKey: key, round: 'semis', teamName: 'Kenya', teamName2: 'Uganda', amount: 300 })]);

    const teams = session(serviceCode);
    await teams.answer('');
    expect(await teams.answer('1')).toBe('CON Winner: pick your team\n1. Uganda\n2. Kenya\n3. Tanzania\n4. Rwanda\n0. Back');
  });

  it('does not offer a draft, and skips the round question when one round is open', async () => {
    const draft = await campaign(false);
    expect(await session(draft.serviceCode).answer('')).toBe('END This service is not available');

    const { key, serviceCode } = await campaign();
    await closeRound(key, 'winner');
    const s = session(serviceCode);
    expect(await s.answer('')).toBe('CON Semi-finals: choose a game\n1. Uganda vs Kenya\n2. Tanzania vs Rwanda');
    await s.answer('2');
    await s.answer('2*1');
    await s.answer('2*1*1');
    expect(await s.answer('2*1*1*1')).toMatch(/^END Approve the payment of UGX 300/);
    expect(await s.calls()).toEqual([expect.objectContaining({ round: 'semis', teamName: 'Tanzania', teamName2: 'Rwanda' })]);
  });

  it('does not offer a round before it opens or after it closes by its times', async () => {
    const { serviceCode } = await campaign(true, [
      { key: 'early', label: 'Early', kind: 'teams', closesAt: '2020-01-01T00:00:00Z' },
      { key: 'now', label: 'Now', kind: 'teams' },
      { key: 'later', label: 'Later', kind: 'teams', opensAt: '2099-01-01T00:00:00Z' },
    ]);
    expect(await session(serviceCode).answer('')).toBe('CON Now: pick your team\n1. Uganda\n2. Kenya\n3. Tanzania\n4. Rwanda');
  });

  it('ends a session whose round closed before it confirmed, politely, creating and charging nothing', async () => {
    const { key, serviceCode } = await campaign();
    const collect = jest.spyOn(world.app.providers.payment, 'collect');
    const s = session(serviceCode);
    for (const text of ['', '2', '2*1', '2*1*1']) await s.answer(text);
    await closeRound(key, 'semis');
    expect(await s.answer('2*1*1*1')).toBe('END Voting for Semi-finals has closed. You have not been charged. Thank you.');
    expect(await s.calls()).toEqual([]);
    expect(collect).not.toHaveBeenCalled();
    collect.mockRestore();
  });

  it('never reads a session\'s earlier answers as another round\'s when a round closes meanwhile', async () => {
    const { key, serviceCode } = await campaign();
    const s = session(serviceCode);
    await s.answer('');
    expect(await s.answer('2')).toMatch(/^CON Semi-finals: choose a game/);
    // With Winner closed a new session would skip the round question; this one keeps its numbers.
    await closeRound(key, 'winner');
    expect(await s.answer('2*1')).toBe('CON Who wins Uganda vs Kenya?\n1. Uganda\n2. Kenya\n0. Back');
    await s.answer('2*1*1');
    expect(await s.answer('2*1*1*1')).toMatch(/^END Approve the payment of UGX 300/);
    expect(await s.calls()).toEqual([expect.objectContaining({ round: 'semis', teamName: 'Uganda', teamName2: 'Kenya' })]);

    // And the other way: the session that chose the round that closed ends at its next answer.
    const other = await campaign();
    const late = session(other.serviceCode, '256702000002');
    await late.answer('');
    await late.answer('1');
    await closeRound(other.key, 'winner');
    expect(await late.answer('1*2')).toBe('END Voting for Winner has closed. You have not been charged. Thank you.');
    expect(await late.calls()).toEqual([]);
  });

  it('ends every session of a closed campaign politely, a confirming one included', async () => {
    const { key, serviceCode } = await campaign();
    const s = session(serviceCode);
    for (const text of ['', '1', '1*1']) await s.answer(text);
    expect((await world.app.inject({ method: 'POST', url: `/v1/campaigns/${key}/close`, headers: admin })).statusCode).toBe(200);
    expect(await s.answer('1*1*1')).toBe('END Voting is closed. You have not been charged. Thank you.');
    expect(await session(serviceCode).answer('')).toBe('END Voting is closed. You have not been charged. Thank you.');
    expect(await s.calls()).toEqual([]);
  });
});

describe('a close the menu has not heard of yet (another instance\'s, within USSD_MENU_CACHE_MS)', () => {
  let cached: TestWorld;
  beforeAll(async () => {
    cached = await buildTestWorld({ ussdMenuCacheMs: 60_000 });
  }, 60_000);
  afterAll(() => cached.close());

  it('is caught at confirm: the vote is not made and nothing is charged', async () => {
    const headers = (await cached.headersFor('admin')).headers;
    const serviceCode = randomCode();
    await cached.db.insert(serviceCodes).values({ name: serviceCode });
    const payload = { key: 'cached', name: 'Cached', serviceCode, teams: ['Uganda', 'Kenya'], rounds: [{ key: 'final', label: 'Final', kind: 'games', games: [['Uganda', 'Kenya']] }] };
    expect((await cached.app.inject({ method: 'POST', url: '/v1/campaigns', headers, payload })).statusCode).toBe(201);
    expect((await cached.app.inject({ method: 'POST', url: '/v1/campaigns/cached/publish', headers })).statusCode).toBe(200);
    const collect = jest.spyOn(cached.app.providers.payment, 'collect');
    const hop = async (text: string) => (await cached.hop({ sessionId: 'cached-1', serviceCode, phoneNumber: '256702000009', text })).body;
    expect(await hop('')).toBe('CON Who wins Uganda vs Kenya?\n1. Uganda\n2. Kenya');
    expect(await hop('1')).toMatch(/^CON Vote Uganda \(Final\)/);
    // Closed in the database behind this instance's menu cache, as another instance's close would be.
    const [row] = await cached.db.select().from(campaigns).where(eq(campaigns.key, 'cached'));
    await cached.db.update(campaigns).set({ rounds: row.rounds.map((round) => ({ ...round, closedAt: new Date().toISOString() })) }).where(eq(campaigns.key, 'cached'));
    expect(await hop('1*1')).toBe('END Voting for Final has closed. You have not been charged. Thank you.');
    expect(await cached.db.select().from(transactions).where(eq(transactions.sessionId, 'cached-1'))).toEqual([]);
    expect(collect).not.toHaveBeenCalled();
    collect.mockRestore();
  });
  it('is caught at confirm when the pick is no longer offered: an edit before the first vote took the team away', async () => {
    const headers = (await cached.headersFor('admin')).headers;
    const serviceCode = randomCode();
    await cached.db.insert(serviceCodes).values({ name: serviceCode });
    const payload = { key: 'edited', name: 'Edited', serviceCode, teams: ['Uganda', 'Kenya'], rounds: [{ key: 'winner', label: 'Winner', kind: 'teams' }] };
    expect((await cached.app.inject({ method: 'POST', url: '/v1/campaigns', headers, payload })).statusCode).toBe(201);
    expect((await cached.app.inject({ method: 'POST', url: '/v1/campaigns/edited/publish', headers })).statusCode).toBe(200);
    const hop = async (text: string) => (await cached.hop({ sessionId: 'edited-1', serviceCode, phoneNumber: '256702000010', text })).body;
    expect(await hop('')).toBe('CON Winner: pick your team\n1. Uganda\n2. Kenya');
    expect(await hop('1')).toMatch(/^CON Vote Uganda \(Winner\)/);
    // Edited behind this instance's menu cache, as another instance's edit would be.
    await cached.db.update(campaigns).set({ teams: ['Kenya', 'Tanzania'] }).where(eq(campaigns.key, 'edited'));
    expect(await hop('1*1')).toMatch(/^END /);
    expect(await cached.db.select().from(transactions).where(eq(transactions.sessionId, 'edited-1'))).toEqual([]);
  });
});

/** One PostgreSQL database serves many connections at once; PGlite one, so nothing can interleave there. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('an edit of the structure beside a vote being made', () => {
  it('waits for the vote to commit, then finds it and refuses the edit', async () => {
    const { key, serviceCode } = await campaign();
    const other = new Client({ connectionString: world.databaseUrl });
    await other.connect();
    try {
      // A vote in the middle of being made, on another connection: its row written, not yet committed.
      await other.query('begin');
      await other.query(
        `insert into transactions (service_code, phone_number, network, amount, campaign_key, round, team_name) values ($1, '256702000011', 'MTN', 300, $2, 'winner', 'Uganda')`,
        [serviceCode, key],
      );
      let answered = false;
      const edit = world.app
        .inject({ method: 'PATCH', url: `/v1/campaigns/${key}`, headers: admin, payload: { teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda', 'Burundi'] } })
        .finally(() => (answered = true));
      await sleep(300);
      expect(answered).toBe(false);
      await other.query('commit');
      const refused = await edit;
      expect(refused.statusCode).toBe(409);
      const [row] = await world.db.select().from(campaigns).where(eq(campaigns.key, key));
      expect(row.teams).toEqual(['Uganda', 'Kenya', 'Tanzania', 'Rwanda']);
    } finally {
      await other.end();
    }
  });

  it('holds a capped vote until the edit commits, then reads the campaign as the edit left it', async () => {
    const { key, serviceCode } = await campaign();
    expect((await world.app.inject({ method: 'PATCH', url: `/v1/campaigns/${key}`, headers: admin, payload: { votesPerRoundCap: 5 } })).statusCode).toBe(200);
    const s = session(serviceCode, '256702000012');
    for (const text of ['', '1']) await s.answer(text);
    expect(await s.answer('1*1')).toMatch(/^CON Vote Uganda \(Winner\)/);
    const other = new Client({ connectionString: world.databaseUrl });
    await other.connect();
    try {
      // An edit in the middle of its transaction on another connection: the row held, Uganda taken away.
      await other.query('begin');
      await other.query(`select 1 from campaigns where key = $1 for update`, [key]);
      await other.query(`update campaigns set teams = '["Kenya", "Tanzania", "Rwanda", "Burundi"]'::jsonb where key = $1`, [key]);
      let answered = false;
      const confirm = s.answer('1*1*1').finally(() => (answered = true));
      await sleep(300);
      expect(answered).toBe(false);
      await other.query('commit');
      expect(await confirm).toMatch(/^END /);
      expect(await s.calls()).toEqual([]);
    } finally {
      await other.end();
    }
  });
});

import { eq, sql } from 'drizzle-orm';
import { campaigns, contents, transactionEvents, transactions } from '../src/db/schema';
import { WORLD_CUP_2022 } from '../src/db/seed-data';
import { seedCampaigns } from '../src/db/seed-votes';
import { USSD_REPLIES } from '../src/ingestion/ussd-menu';
import { buildTestWorld, TEST_USSD_TOKEN, USSD_CALLBACK_URL, type TestWorld } from './helpers';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(60_000);

/** The USSD callback's door (DESIGN §4): token, sources, form only, limits, session ownership, one phone form. */
let world: TestWorld;
let code: string;
beforeAll(async () => {
  world = await buildTestWorld({ ussd: { confirmsPerMinute: 5 } });
  await seedCampaigns(world.db);
  const catalogue = await createCatalogue(world, null, { ordinary: 1000, vip: 5000 });
  code = catalogue.code.name;
  await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'ordinary', message: 'Ticket', active: true });
});
afterAll(() => world.close());

const callsOf = (phoneNumber: string) => world.db.select().from(transactions).where(eq(transactions.phoneNumber, phoneNumber));
const eventsOfSession = (sessionId: string) => world.db.select().from(transactionEvents).where(eq(transactionEvents.sessionId, sessionId));
let sessions = 0;
/** A whole purchase: menu, the first level, confirm; answers the last reply. */
async function buy(phoneNumber: string, serviceCode = code) {
  sessions += 1;
  const sessionId = `door-${sessions}`;
  for (const text of ['', '1']) await world.hop({ sessionId, serviceCode, phoneNumber, text });
  return { sessionId, reply: (await world.hop({ sessionId, serviceCode, phoneNumber, text: '1*1' })).body };
}

describe('the USSD callback URL carries USSD_CALLBACK_TOKEN', () => {
  it('refuses a hop without the token, or with another, with 401, reading and recording nothing', async () => {
    const form = { sessionId: 'door-no-token', serviceCode: code, phoneNumber: '256772100001', text: '' };
    for (const url of ['/v1/ussd/callback', '/v1/ussd/callback?token=', `/v1/ussd/callback?token=${TEST_USSD_TOKEN}x`, '/v1/ussd/callback?token[]=a']) {
      const response = await world.hop(form, url);
      expect([url, response.statusCode]).toEqual([url, 401]);
      expect(response.body).not.toContain(TEST_USSD_TOKEN);
    }
    expect(await eventsOfSession('door-no-token')).toEqual([]);
    expect((await world.hop(form)).statusCode).toBe(200);
  });

  it('takes only Africa\'s Talking form: JSON is 415', async () => {
    const response = await world.app.inject({
      method: 'POST',
      url: USSD_CALLBACK_URL,
      payload: { sessionId: 'door-json', serviceCode: code, phoneNumber: '256772100002', text: '' },
    });
    expect(response.statusCode).toBe(415);
    expect(await eventsOfSession('door-json')).toEqual([]);
  });

  it('takes a networkCode only as an MCC and MNC (5 or 6 digits)', async () => {
    for (const networkCode of ['MTN', '641', '6411012', '64110; drop']) {
      const response = await world.hop({ sessionId: 'door-network', serviceCode: code, phoneNumber: '256772100003', text: '', networkCode });
      expect([networkCode, response.statusCode, response.json().errors[0].field]).toEqual([networkCode, 400, 'networkCode']);
      expect(response.body).not.toContain(networkCode);
    }
    expect((await world.hop({ sessionId: 'door-network', serviceCode: code, phoneNumber: '256772100003', text: '', networkCode: '641101' })).statusCode).toBe(200);
  });
});

describe('USSD_ALLOWED_SOURCES', () => {
  it('refuses callbacks from any other address with 403, and serves those in the list', async () => {
    const elsewhere = await buildTestWorld({ ussd: { allowedSources: ['10.20.0.0/16', '192.0.2.7'] } });
    try {
      const form = { sessionId: 'door-source', serviceCode: '*1#', phoneNumber: '256772100004', text: '' };
      expect((await elsewhere.hop(form)).statusCode).toBe(403);
      const inject = (remoteAddress: string) =>
        elsewhere.app.inject({ method: 'POST', url: USSD_CALLBACK_URL, remoteAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
      expect((await inject('10.20.3.4')).statusCode).toBe(200);
      expect((await inject('192.0.2.7')).statusCode).toBe(200);
      expect((await inject('10.21.0.1')).statusCode).toBe(403);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('USSD_CONFIRMS_PER_MINUTE', () => {
  it('requests at most 5 payments a minute for one number, then ends politely and creates nothing', async () => {
    const phoneNumber = '256772100010';
    const collect = jest.spyOn(world.app.providers.payment, 'collect');
    for (let i = 0; i < 5; i += 1) expect((await buy(phoneNumber)).reply).toMatch(/^END Approve the payment/);
    const refused = await buy(phoneNumber);
    expect(refused.reply).toBe(USSD_REPLIES.tooManyPayments);
    expect(await callsOf(phoneNumber)).toHaveLength(5);
    expect(collect).toHaveBeenCalledTimes(5);
    // Another number is not held back; a minute later this one may buy again.
    expect((await buy('256772100011')).reply).toMatch(/^END Approve the payment/);
    await world.db.execute(sql`update ussd_confirmations set recent = array(select t - interval '61 seconds' from unnest(recent) t) where phone_number = ${phoneNumber}`);
    expect((await buy(phoneNumber)).reply).toMatch(/^END Approve the payment/);
    collect.mockRestore();
  });

  it('counts exactly when confirmations for one number arrive all at once', async () => {
    const phoneNumber = '256772100020';
    const replies = await Promise.all(Array.from({ length: 20 }, () => buy(phoneNumber)));
    expect(replies.filter(({ reply }) => reply.startsWith('END Approve the payment'))).toHaveLength(5);
    expect(await callsOf(phoneNumber)).toHaveLength(5);
  });
});

describe('a session', () => {
  it('is bounded: past the longest menu a hop ends it and nothing more is recorded', async () => {
    const text = Array.from({ length: 60 }, () => '98').join('*');
    expect((await world.hop({ sessionId: 'door-long', serviceCode: code, phoneNumber: '256772100030', text })).body).toBe(USSD_REPLIES.tooLong);
    expect(await eventsOfSession('door-long')).toEqual([]);
  });

  it("belongs to its phone: another number's hop on it is refused with END and requests nothing", async () => {
    const { sessionId } = await buy('256772100040');
    const collect = jest.spyOn(world.app.providers.payment, 'collect');
    const stolen = await world.hop({ sessionId, serviceCode: code, phoneNumber: '256772100041', text: '1*1' });
    expect(stolen.body).toBe(USSD_REPLIES.foreignSession);
    expect(collect).not.toHaveBeenCalled();
    expect(await callsOf('256772100041')).toEqual([]);
    // The owner's repeated hop still gets its answer.
    expect((await world.hop({ sessionId, serviceCode: code, phoneNumber: '+256772100040', text: '1*1' })).body).toMatch(/^END Approve the payment/);
    collect.mockRestore();
  });
});

describe('one form for every phone number', () => {
  it('counts +256…, 00256…, 256… and 0… as one voter against the vote cap, and finds them as one in search', async () => {
    await world.db.update(campaigns).set({ votesPerRoundCap: 3 }).where(eq(campaigns.key, WORLD_CUP_2022.key));
    const forms = ['256772100050', '+256772100050', '00256772100050', '0772100050'];
    const replies: string[] = [];
    for (const phoneNumber of forms) {
      sessions += 1;
      const sessionId = `door-vote-${sessions}`;
      let reply = '';
      for (const text of ['', '1', '1*3', '1*3*1']) reply = (await world.hop({ sessionId, serviceCode: WORLD_CUP_2022.serviceCode, phoneNumber, text })).body;
      replies.push(reply);
    }
    expect(replies.slice(0, 3).every((reply) => reply.startsWith('END Approve the payment'))).toBe(true);
    expect(replies[3]).toMatch(/^END You have cast your 3 votes/);
    expect((await callsOf('256772100050')).map((call) => call.phoneNumber)).toEqual(['256772100050', '256772100050', '256772100050']);

    const { headers } = await world.headersFor('admin');
    for (const phoneNumber of forms) {
      const found = await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers, payload: { phoneNumber } });
      expect([phoneNumber, found.json().results.total]).toEqual([phoneNumber, 3]);
    }
    await world.db.update(campaigns).set({ votesPerRoundCap: null }).where(eq(campaigns.key, WORLD_CUP_2022.key));
  });
});

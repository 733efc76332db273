import { eq } from 'drizzle-orm';
import { categories, contents, transactionEvents, transactions } from '../src/db/schema';
import { PaymentProviderUnavailable } from '../src/providers/payment';
import { USSD_REPLIES } from '../src/ingestion/ussd-menu';
import { buildTestWorld, USSD_CALLBACK_URL, type TestWorld } from './helpers';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let code: string;
let categoryId: string;

beforeAll(async () => {
  world = await buildTestWorld();
  // Ordinary, VIP and Kibimba are priced; Kibimba has no active content, so the menu leaves it out.
  const catalogue = await createCatalogue(world, null, { ordinary: 10000, vip: 25000, kibimba: 3000 } as { ordinary: number; vip: number });
  code = catalogue.code.name;
  categoryId = catalogue.category.id;
  await world.db.insert(contents).values([
    { categoryId, categoryLevel: 'vip', message: 'VIP ticket 7781', active: true },
    { categoryId, categoryLevel: 'ordinary', message: 'Ordinary ticket 1200', active: true },
    { categoryId, categoryLevel: 'kibimba', message: 'Old kibimba ticket', active: false },
  ]);
});
afterAll(() => world.close());
afterEach(() => jest.restoreAllMocks());

const dial = (sessionId: string, text: string, fields: Record<string, string> = {}) =>
  world.hop({ sessionId, serviceCode: code, phoneNumber: '+256772000111', networkCode: '64110', text, ...fields });
const callsOf = (sessionId: string) => world.db.select().from(transactions).where(eq(transactions.sessionId, sessionId));
const eventsOf = (sessionId: string) => world.db.select().from(transactionEvents).where(eq(transactionEvents.sessionId, sessionId)).orderBy(transactionEvents.id);

describe('POST /v1/ussd/callback', () => {
  it('offers the levels that have a price and an active content, confirms, then requests the payment once', async () => {
    const collect = jest.spyOn(world.app.providers.payment, 'collect');
    const menu = await dial('s-1', '');
    expect(menu.statusCode).toBe(200);
    expect(menu.headers['content-type']).toMatch(/^text\/plain/);
    expect(menu.body).toMatch(/^CON Category .*: choose a ticket\n1\. Ordinary UGX 10,000\n2\. VIP UGX 25,000$/);
    expect((await dial('s-1', '2')).body).toMatch(/^CON Pay UGX 25,000 for VIP \(Category .*\)\?\n1\. Confirm\n2\. Cancel$/);
    expect(await callsOf('s-1')).toHaveLength(0);

    const confirmed = await dial('s-1', '2*1');
    expect(confirmed.body).toBe('END Approve the payment of UGX 25,000 on your phone. Your VIP ticket will come by SMS.');
    const [call] = await callsOf('s-1');
    expect(call).toMatchObject({ serviceCode: code, phoneNumber: '256772000111', network: 'MTN', categoryId, categoryLevel: 'vip', amount: 25000, isComplete: false, isDeleted: false, campaignKey: null });
    expect(call.paymentRef).toMatch(/^[0-9a-f-]{36}$/);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collect).toHaveBeenCalledWith({ reference: call.paymentRef, phoneNumber: '256772000111', amount: 25000 });

    // The network repeating hops: the same answers, no second call, no second payment request, no event twice.
    expect((await dial('s-1', '2*1')).body).toBe(confirmed.body);
    expect((await dial('s-1', '2')).body).toMatch(/^CON Pay UGX 25,000/);
    expect(await callsOf('s-1')).toHaveLength(1);
    expect(collect).toHaveBeenCalledTimes(1);

    const events = await eventsOf('s-1');
    expect(events.map((e) => [e.kind, e.detail.input])).toEqual([
      ['ussd_hop', ''],
      ['ussd_hop', '2'],
      ['ussd_hop', '1'],
    ]);
    expect(events.every((e) => e.transactionId === call.id && e.actor === 'customer')).toBe(true);
    expect(events[2].detail.reply).toBe(confirmed.body);
    const requested = await world.db.select().from(transactionEvents).where(eq(transactionEvents.transactionId, call.id));
    expect(requested.filter((e) => e.kind === 'payment_requested')).toEqual([
      expect.objectContaining({ actor: 'system', detail: { amount: 25000, provider: world.app.providers.payment.name } }),
    ]);
  });

  it('cancels without a call or a payment request', async () => {
    const collect = jest.spyOn(world.app.providers.payment, 'collect');
    expect((await dial('s-2', '1*2')).body).toBe('END Cancelled. You have not been charged. Thank you.');
    expect(await callsOf('s-2')).toHaveLength(0);
    expect(collect).not.toHaveBeenCalled();
  });

  it('re-asks a bad answer once, then ends', async () => {
    expect((await dial('s-3', '9')).body).toMatch(/^CON Invalid choice\.\nCategory/);
    expect((await dial('s-3', '9*9')).body).toBe('END Sorry, that is not a valid choice. Please dial again.');
    expect(await callsOf('s-3')).toHaveLength(0);
  });

  it('ends an unknown or unpriced code; an empty or malformed callback is 400', async () => {
    expect((await dial('s-4', '', { serviceCode: '*999*9#' })).body).toBe('END This service is not available');
    const unpriced = await createCatalogue(world, null, {});
    expect((await dial('s-5', '', { serviceCode: unpriced.code.name })).body).toBe('END This service is not available');
    for (const payload of [{}, { text: '' }, { sessionId: 's-6', serviceCode: code, phoneNumber: 'not a number' }, { sessionId: 's-6', serviceCode: code, phoneNumber: '256772000111', text: 'a\u0000b' }]) {
      const bad = await world.hop(payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ status: false, errors: expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]) });
    }
    expect((await world.app.inject({ method: 'POST', url: USSD_CALLBACK_URL, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode).toBe(400);
  });

  it('fails the call and ends politely when the provider refuses or breaks', async () => {
    jest.spyOn(world.app.providers.payment, 'collect').mockRejectedValueOnce(new Error('provider down'));
    expect((await dial('s-7', '1*1')).body).toBe('END Payment is unavailable, please try again later.');
    expect(await callsOf('s-7')).toEqual([expect.objectContaining({ isDeleted: true, isComplete: false, amount: 10000 })]);
    jest.spyOn(world.app.providers.payment, 'collect').mockResolvedValueOnce({ accepted: false, providerRef: 'x' });
    expect((await dial('s-8', '1*1')).body).toBe('END Payment is unavailable, please try again later.');
    expect(await callsOf('s-8')).toEqual([expect.objectContaining({ isDeleted: true })]);
  });

  it('leaves the call pending for the sweeper when the provider cannot say whether it took the request', async () => {
    jest.spyOn(world.app.providers.payment, 'collect').mockRejectedValueOnce(new PaymentProviderUnavailable('MoMo unreachable'));
    const reply = (await dial('s-9', '1*1')).body;
    expect(reply).toBe(USSD_REPLIES.paymentUnconfirmed);
    expect(reply.length).toBeLessThanOrEqual(182);
    expect(await callsOf('s-9')).toEqual([expect.objectContaining({ isDeleted: false, isComplete: false, amount: 10000 })]);
  });
});

describe('the menu catalogue cache (USSD_MENU_CACHE_MS)', () => {
  let cached: TestWorld;
  beforeAll(async () => {
    cached = await buildTestWorld({ ussdMenuCacheMs: 60_000 });
  });
  afterAll(() => cached.close());

  it('keeps a code\'s menu between hops, and forgets it as soon as the catalogue changes through the API', async () => {
    const { category, code: serviceCode } = await createCatalogue(cached, null, { ordinary: 10000, vip: 20000 });
    await cached.db.insert(contents).values({ categoryId: category.id, categoryLevel: 'ordinary', message: 'Ordinary ticket', active: true });
    const menu = async (sessionId: string) =>
      (
        await cached.hop({ sessionId, serviceCode: serviceCode.name, phoneNumber: '256772000222', text: '' })
      ).body;
    expect(await menu('cache-1')).toMatch(/: choose a ticket\n1\. Ordinary UGX 10,000$/);

    // Written behind the API's back (as another instance would): answered from the cache until it expires.
    await cached.db.update(categories).set({ ordinary: 12000 }).where(eq(categories.id, category.id));
    expect(await menu('cache-2')).toMatch(/: choose a ticket\n1\. Ordinary UGX 10,000$/);

    // A VIP ticket content added through this API: the next hop reads the catalogue again.
    const { headers } = await cached.headersFor('admin');
    const added = await cached.app.inject({
      method: 'POST',
      url: '/v1/ticket',
      headers,
      payload: { name: 'VIP', description: 'Weekend', category: category.id, categoryLevel: 'vip', message: 'VIP ticket 42', active: true },
    });
    expect(added.statusCode).toBe(201);
    expect(await menu('cache-3')).toMatch(/: choose a ticket\n1\. Ordinary UGX 12,000\n2\. VIP UGX 20,000$/);
  });
});

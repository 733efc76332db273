import { eq } from 'drizzle-orm';
import { contents, transactions } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let code: string;
let categoryId: string;

beforeAll(async () => {
  world = await buildTestWorld();
  const catalogue = await createCatalogue(world, null, { ordinary: 10000, vip: 25000 });
  code = catalogue.code.name;
  categoryId = catalogue.category.id;
  await world.db.insert(contents).values({ categoryId, categoryLevel: 'vip', message: 'VIP ticket 7781', active: true });
});
afterAll(() => world.close());

const dial = (sessionId: string, text: string, phoneNumber = '+256772000111') =>
  world.app.inject({
    method: 'POST',
    url: '/v1/ussd/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ sessionId, serviceCode: code, phoneNumber, networkCode: '64110', text }).toString(),
  });
const pay = (reference: string, status: string) => world.pay(reference, status);
const bySession = async (sessionId: string) =>
  (await world.db.select().from(transactions).where(eq(transactions.sessionId, sessionId)))[0];

describe('USSD and payment callbacks', () => {
  it('offers the priced levels, then asks to pay the chosen price', async () => {
    const menu = await dial('s-1', '');
    expect(menu.headers['content-type']).toMatch(/^text\/plain/);
    expect(menu.body).toBe('CON Choose your ticket\n1. Ordinary UGX 10,000\n2. VIP UGX 25,000');
    const chosen = await dial('s-1', '2');
    expect(chosen.body).toBe('END You will receive a prompt to pay UGX 25,000');
    expect(await bySession('s-1')).toMatchObject({ serviceCode: code, phoneNumber: '256772000111', network: 'MTN', categoryLevel: 'vip', amount: 25000, isComplete: false, isDeleted: false });
    // The network retrying the same session makes no second call.
    expect((await dial('s-1', '2')).body).toBe('END You will receive a prompt to pay UGX 25,000');
    expect(await world.db.select().from(transactions).where(eq(transactions.sessionId, 's-1'))).toHaveLength(1);
  });

  it('answers an unknown code or a bad choice with END', async () => {
    expect((await dial('s-2', '9')).body).toBe('END Invalid choice');
    const unknown = await world.app.inject({ method: 'POST', url: '/v1/ussd/callback', payload: { sessionId: 's-3', serviceCode: '*999*9#', phoneNumber: '256700000000', text: '' } });
    expect(unknown.body).toBe('END This service is not available');
    const bad = await world.app.inject({ method: 'POST', url: '/v1/ussd/callback', payload: { text: '' } });
    expect(bad.statusCode).toBe(400);
  });

  it('settles a successful payment once, with the active ticket', async () => {
    await dial('s-4', '2');
    const { paymentRef } = await bySession('s-4');
    const first = await pay(paymentRef!, 'SUCCESSFUL');
    expect(first.statusCode).toBe(200);
    const settled = await bySession('s-4');
    expect(settled).toMatchObject({ isComplete: true, isDeleted: false, ticketMessage: 'VIP ticket 7781', messageStatuses: 'Sent' });
    expect(settled.callbackTime).toBeInstanceOf(Date);
    const again = await pay(paymentRef!, 'FAILED');
    expect(again.json()).toMatchObject({ message: 'Payment already settled' });
    expect(await bySession('s-4')).toMatchObject({ isComplete: true, isDeleted: false, callbackTime: settled.callbackTime });
  });

  it('fails a refused payment once; unknown references 404, bad bodies 400', async () => {
    await dial('s-5', '1');
    const { paymentRef } = await bySession('s-5');
    expect((await pay(paymentRef!, 'FAILED')).json()).toMatchObject({ message: 'Payment failed' });
    expect((await pay(paymentRef!, 'SUCCESSFUL')).json()).toMatchObject({ message: 'Payment already settled' });
    expect(await bySession('s-5')).toMatchObject({ isComplete: false, isDeleted: true, ticketMessage: null });
    expect((await pay('no-such-ref', 'FAILED')).statusCode).toBe(404);
    expect((await pay(paymentRef!, 'MAYBE')).statusCode).toBe(400);
  });
});

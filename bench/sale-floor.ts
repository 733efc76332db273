/**
 * The server's floor for a ticket sale (bench:scale): a sale's requests as bare Fastify routes that
 * run the sale's statements (bench/sale-statements.ts) through the API's driver (pg, each statement
 * prepared) and answer the same bytes as the API, and nothing else: no validation, no signature
 * check, no events, no menu, no JSON envelope built per request. What the API spends past this
 * floor is what those cost.
 */
import formBody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { Pool } from 'pg';
import { ussdMenu, type UssdService } from '../src/domain/ussd-menu';
import { SALE_STATEMENTS, withParameters, type SaleValue } from './sale-statements';

/** bench:ingest's catalogue (one category, one priced level on each code). */
const BENCH_CATALOGUE: UssdService = { kind: 'catalogue', categoryName: 'Bench Tips', levels: [{ level: 'ordinary', price: 1000 }] };

export async function saleFloorApp(databaseUrl: string): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  // As the API's pool (server/src/db/client.ts).
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });
  pool.on('error', () => {});
  let named = 0;
  const prepared = (statements: string[]) =>
    statements.map((statement) => {
      const { text, names } = withParameters(statement);
      const name = `floor_${(named += 1)}`;
      return (values: Record<SaleValue, string>) => pool.query<{ transaction_id?: string; id?: string; is_complete?: boolean }>({ name, text, values: names.map((value) => values[value]) });
    });
  const run = async (steps: ReturnType<typeof prepared>, values: Record<SaleValue, string>) => {
    let last;
    for (const step of steps) last = await step(values);
    return last!;
  };
  const hops = { '': prepared(SALE_STATEMENTS.menu), '1': prepared(SALE_STATEMENTS.choice), '1*1': prepared(SALE_STATEMENTS.confirm) } as Record<string, ReturnType<typeof prepared>>;
  const callback = prepared(SALE_STATEMENTS.callback);
  const settle = prepared(SALE_STATEMENTS.settle);
  const ticket = prepared(SALE_STATEMENTS.ticket);
  // The API's answers to the bench's hops, worked out once.
  const replies = Object.fromEntries(Object.keys(hops).map((text) => [text, ussdMenu(BENCH_CATALOGUE, text).reply]));
  let sms = 0;

  const app = Fastify({ logger: false });
  // The hops are form-encoded, parsed as the API parses them.
  await app.register(formBody);
  app.post('/v1/ussd/callback', async (request, reply) => {
    const { sessionId, phoneNumber, text } = request.body as Record<string, string>;
    await run(hops[text], { session: sessionId, phone: phoneNumber, n: '' });
    return reply.type('text/plain; charset=utf-8').send(replies[text]);
  });
  app.post('/v1/payments/callback', async (request, reply) => {
    const { reference } = request.body as Record<string, string>;
    const values = { session: reference, phone: '', n: String((sms += 1)) };
    const [found] = (await run(callback, values)).rows;
    const [first] = found && !found.is_complete ? (await run(settle, values)).rows : [];
    if (first) await run(ticket, values);
    const id = found?.id;
    const message = first ? 'Payment recorded' : 'Payment already settled';
    return reply.type('application/json; charset=utf-8').send(`{"status":true,"message":"${message}","results":{"_id":"${id}"}}`);
  });
  return { app, close: () => pool.end() };
}

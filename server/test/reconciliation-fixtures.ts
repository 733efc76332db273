import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { contents } from '../src/db/schema';
import type { OutgoingSms, SmsProvider } from '../src/providers/sms';
import type { TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

export type Headers = Record<string, string>;

export const STATEMENT_HEADER = 'reference,amount,currency,status,completedAt';

/** A statement line as the provider writes it. */
export interface StatementLineInput {
  reference: string;
  amount?: number | string;
  currency?: string;
  status?: 'SUCCESSFUL' | 'FAILED' | string;
  completedAt?: string;
}

/** A statement file: the header and one line each, CRLF as spreadsheets write it. */
export function statementCsv(lines: StatementLineInput[], { header = STATEMENT_HEADER, bom = false, eol = '\r\n' } = {}) {
  const body = lines.map((l) => [l.reference, l.amount ?? 20000, l.currency ?? 'UGX', l.status ?? 'SUCCESSFUL', l.completedAt ?? '2026-05-01T10:00:00Z'].join(','));
  return `${bom ? '\ufeff' : ''}${[header, ...body].join(eol)}${eol}`;
}

export function upload(world: TestWorld, headers: Headers, csv: string | Buffer, { fileName, contentType = 'text/csv' }: { fileName?: string; contentType?: string } = {}) {
  return world.app.inject({
    method: 'POST',
    url: `/v1/reconciliation/statements${fileName ? `?fileName=${encodeURIComponent(fileName)}` : ''}`,
    headers: { ...headers, 'content-type': contentType },
    payload: csv,
  });
}

/** The SMS gateway, counting what it is asked to send. */
export function countingSms() {
  const sent: OutgoingSms[] = [];
  const provider: SmsProvider = {
    name: 'counting',
    async send(sms) {
      // A gateway takes a moment: two concurrent settlements would both be sending by now.
      await new Promise((resolve) => setTimeout(resolve, 10));
      sent.push(sms);
      return { status: 'sent', providerRef: `ATXid_${sent.length}` };
    },
  };
  return { sent, provider };
}

/** A category with an active VIP ticket content and a service code under it. */
export async function ticketCatalogue(world: TestWorld) {
  const catalogue = await createCatalogue(world, null);
  const ticketMessage = `VIP ticket ${crypto.randomUUID().slice(0, 6)}`;
  await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'vip', message: ticketMessage, active: true });
  return { ...catalogue, ticketMessage };
}

export type CallState = 'processed' | 'failed' | 'pending';

/** A VIP call of 20,000 with a payment reference, in the given state, settled at `callbackTime` when not pending. */
export async function insertCall(world: TestWorld, catalogue: Awaited<ReturnType<typeof ticketCatalogue>>, state: CallState, callbackTime = new Date('2026-05-01T10:00:00Z')) {
  const reference = `ref-${crypto.randomUUID()}`;
  const [call] = await insertTransactions(world, catalogue.code.name, [
    {
      paymentRef: reference,
      phoneNumber: `2567${String(crypto.randomInt(1e8)).padStart(8, '0')}`,
      categoryId: catalogue.category.id,
      categoryLevel: 'vip',
      amount: 20000,
      isComplete: state === 'processed',
      isDeleted: state === 'failed',
      callbackTime: state === 'pending' ? null : callbackTime,
      ticketMessage: state === 'processed' ? catalogue.ticketMessage : null,
      messageStatuses: state === 'processed' ? 'Delivered' : state === 'failed' ? 'Payment failed' : null,
    },
  ]);
  return { ...call, reference };
}

/** Rows of both reconciliation tables: a refused upload must leave them as they were. */
export async function reconciliationTableSizes(world: TestWorld) {
  const result = (await world.db.execute(
    sql`select (select count(*)::int from reconciliation_statements) as statements, (select count(*)::int from reconciliation_rows) as rows`,
  )) as unknown as { rows: { statements: number; rows: number }[] };
  return result.rows[0];
}

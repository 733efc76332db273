import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { buildTestWorld, type TestWorld } from './helpers';
import { insertCall, statementCsv, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';
import type { ReconciliationRow, ReconciliationStatement } from '../../src/domain/reconciliation';

jest.setTimeout(60_000);

let world: TestWorld;
let admin: Headers;
let catalogue: Awaited<ReturnType<typeof ticketCatalogue>>;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  catalogue = await ticketCatalogue(world);
});
afterAll(() => world.close());

type StatementAnswer = ReconciliationStatement & { rows: { docs: ReconciliationRow[]; total: number; page: number; pages: number } };

async function statement(id: string, query = '', headers = admin): Promise<StatementAnswer> {
  const response = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}${query}`, headers });
  expect(response.statusCode).toBe(200);
  return response.json().results;
}

const at = (day: string, time: string) => new Date(`${day}T${time}Z`);

describe('POST /v1/reconciliation/statements', () => {
  it('sorts each line into its kind, and adds the paid calls of the period the statement has no line for', async () => {
    const day = '2026-05-01';
    const [matched, failedPaid, pendingPaid, ticketFailed, otherAmount, bothFailed, missing, outside] = await Promise.all([
      insertCall(world, catalogue, 'processed', at(day, '09:00:00')),
      insertCall(world, catalogue, 'failed', at(day, '09:10:00')),
      insertCall(world, catalogue, 'pending'),
      insertCall(world, catalogue, 'processed', at(day, '09:20:00')),
      insertCall(world, catalogue, 'processed', at(day, '09:30:00')),
      insertCall(world, catalogue, 'failed', at(day, '09:40:00')),
      insertCall(world, catalogue, 'processed', at(day, '10:30:00')),
      insertCall(world, catalogue, 'processed', at(day, '12:00:00')),
    ]);
    const csv = statementCsv([
      { reference: matched.reference, completedAt: `${day}T09:00:00Z` },
      { reference: failedPaid.reference, completedAt: `${day}T09:10:00Z` },
      { reference: pendingPaid.reference, completedAt: `${day}T09:15:00Z` },
      { reference: ticketFailed.reference, status: 'FAILED', completedAt: `${day}T09:20:00Z` },
      { reference: otherAmount.reference, amount: '15000.00', completedAt: `${day}T09:30:00Z` },
      { reference: bothFailed.reference, status: 'failed', completedAt: `${day}T09:40:00Z` },
      { reference: 'not-ours-1', completedAt: `${day}T11:00:00Z` },
    ]);
    const created = await upload(world, admin, csv, { fileName: 'C:\\exports\\momo-may.csv' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ status: true, message: 'Statement imported', results: { _id: expect.any(String) } });

    const answer = await statement(created.json().results._id);
    expect(answer).toMatchObject({
      fileName: 'momo-may.csv',
      uploadedBy: { userName: expect.stringMatching(/^admin-/) },
      lines: 7,
      periodFrom: `${day}T09:00:00.000Z`,
      periodTo: `${day}T11:00:00.000Z`,
      counts: { matched: 2, paidNoTicket: 2, ticketNoMoney: 2, amountMismatch: 1, unknownReference: 1 },
      open: { paidNoTicket: 2, ticketNoMoney: 2 },
    });
    const byReference = new Map(answer.rows.docs.map((row) => [row.reference, row]));
    expect(answer.rows.total).toBe(8);
    expect([...byReference.keys()]).toEqual([matched, failedPaid, pendingPaid, ticketFailed, otherAmount, bothFailed].map((c) => c.reference).concat('not-ours-1', missing.reference));
    expect(byReference.get(failedPaid.reference)).toMatchObject({ kind: 'paidNoTicket', line: 3, amount: 20000, currency: 'UGX', status: 'SUCCESSFUL', transaction: { _id: failedPaid.id, isDeleted: true }, action: null });
    expect(byReference.get(pendingPaid.reference)?.kind).toBe('paidNoTicket');
    expect(byReference.get(ticketFailed.reference)?.kind).toBe('ticketNoMoney');
    expect(byReference.get(otherAmount.reference)).toMatchObject({ kind: 'amountMismatch', amount: 15000, transaction: { amount: 20000 } });
    expect(byReference.get(bothFailed.reference)).toMatchObject({ kind: 'matched', status: 'FAILED' });
    expect(byReference.get('not-ours-1')).toMatchObject({ kind: 'unknownReference', transaction: null });
    // The statement's period runs 09:00 to 11:00: the call settled at 10:30 has no line, the one at 12:00 is another statement's.
    expect(byReference.get(missing.reference)).toMatchObject({ kind: 'ticketNoMoney', line: null, amount: null, status: null, transaction: { _id: missing.id } });
    expect(byReference.has(outside.reference)).toBe(false);
  });

  it('recognises the same file twice and counts it once', async () => {
    const day = '2026-05-02';
    const call = await insertCall(world, catalogue, 'processed', at(day, '08:00:00'));
    const csv = statementCsv([{ reference: call.reference, completedAt: `${day}T08:00:00Z` }]);
    const first = await upload(world, admin, csv);
    const again = await upload(world, (await world.headersFor('super-user')).headers, csv, { fileName: 'renamed.csv' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: 'This statement was imported already', results: { _id: first.json().results._id } });
    const [a, b] = await Promise.all([upload(world, admin, `${csv}\r\n`), upload(world, admin, `${csv}\r\n`)]);
    expect(a.json().results._id).toBe(b.json().results._id);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect((await statement(first.json().results._id)).counts).toEqual({
      matched: 1,
      paidNoTicket: 0,
      ticketNoMoney: 0,
      amountMismatch: 0,
      currencyMismatch: 0,
      unknownReference: 0,
      refundUnknown: 0,
      refundMismatch: 0,
      refundMissing: 0,
    });
  });

  it('does not report a call another statement already shows as paid, however the periods overlap', async () => {
    const day = '2026-05-03';
    const late = await insertCall(world, catalogue, 'processed', at(day, '00:00:01'));
    const other = await insertCall(world, catalogue, 'processed', at(day, '00:00:02'));
    // The provider put this payment in the day before's statement (completed 23:59:59 on its side).
    await upload(world, admin, statementCsv([{ reference: late.reference, completedAt: '2026-05-02T23:59:59Z' }]));
    const next = await upload(world, admin, statementCsv([{ reference: other.reference, completedAt: `${day}T00:00:00Z` }, { reference: 'x-3', completedAt: `${day}T23:00:00Z` }]));
    const rows = (await statement(next.json().results._id)).rows.docs;
    expect(rows.map((row) => row.reference)).toEqual([other.reference, 'x-3']);
  });

  it('reads a BOM, LF or CRLF, quoted values, extra columns in any order, and times without an offset in the service zone', async () => {
    const call = await insertCall(world, catalogue, 'processed', at('2026-05-04', '07:00:00'));
    const csv = `\ufeffStatus , Amount,"Reference",fee,currency,completedAt\n"SUCCESSFUL","20000",${call.reference},"1,500",ugx,2026-05-04 10:00:00\n\n`;
    const created = await upload(world, admin, csv);
    expect(created.statusCode).toBe(201);
    const answer = await statement(created.json().results._id);
    // Kampala is UTC+3.
    expect(answer).toMatchObject({ lines: 1, periodFrom: '2026-05-04T07:00:00.000Z', counts: { matched: 1 } });
    expect(answer.rows.docs[0]).toMatchObject({ reference: call.reference, currency: 'UGX', completedAt: '2026-05-04T07:00:00.000Z' });
  });

  it('takes the file name from an X-File-Name header too', async () => {
    const response = await world.app.inject({
      method: 'POST',
      url: '/v1/reconciliation/statements',
      headers: { ...admin, 'content-type': 'text/csv; charset=utf-8', 'x-file-name': encodeURIComponent('relevé mai.csv') },
      payload: statementCsv([{ reference: 'header-name-1', completedAt: '2026-04-01T00:00:00Z' }]),
    });
    expect(response.statusCode).toBe(201);
    expect((await statement(response.json().results._id)).fileName).toBe('relevé mai.csv');
  });
});

describe('GET /v1/reconciliation/statements/{id}', () => {
  it('pages the rows of one kind, 50 to a page, and refuses an unknown kind', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => ({ reference: `paging-${i}`, completedAt: '2026-03-01T00:00:00Z', status: i % 2 ? 'FAILED' : 'SUCCESSFUL' }));
    const { _id } = (await upload(world, admin, statementCsv(lines))).json().results;
    const page2 = await statement(_id, '?kind=unknownReference&page=2');
    expect(page2.rows).toMatchObject({ page: 2, total: 120, pages: 3 });
    expect(page2.rows.docs.map((row) => row.line)).toEqual(Array.from({ length: 50 }, (_, i) => i + 52));
    expect((await statement(_id, '?kind=matched')).rows).toMatchObject({ total: 0, docs: [] });
    const bad = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}?kind=everything`, headers: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'kind', message: 'Invalid kind' }]);
    const missing = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${crypto.randomUUID()}`, headers: admin });
    expect(missing.statusCode).toBe(404);
  });

  it('exports the rows of a kind as CSV through the download helper', async () => {
    const call = await insertCall(world, catalogue, 'failed', at('2026-02-01', '10:00:00'));
    const { _id } = (await upload(world, admin, statementCsv([{ reference: call.reference, completedAt: '2026-02-01T10:00:00Z' }, { reference: '=cmd|x', completedAt: '2026-02-01T10:01:00Z' }]))).json().results;
    const response = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}/export?kind=paidNoTicket`, headers: admin });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="reconciliation-\d{4}-\d{2}-\d{2}-paidNoTicket\.csv"/);
    const [header, line, end] = response.body.split('\r\n');
    expect(header).toBe('Line,Kind,Type,Reference,Amount,Currency,Status,Completed at,Call status,Call amount,Service code,From,Call time,Action,By,At,Note');
    // Times on the service zone's clock (Kampala, UTC+3) with the offset, as the screen shows them.
    expect(line).toMatch(new RegExp(`^2,"Paid, no ticket",PAYMENT,${call.reference},20000,UGX,SUCCESSFUL,2026-02-01T13:00:00\\+03:00,failed,20000,[^,]+,${call.phoneNumber},\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?\\+03:00,`));
    expect(end).toBe('');
    const all = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}/export`, headers: admin });
    // A reference that looks like a formula is defused for spreadsheets.
    expect(all.body).toContain(`3,Unknown reference,PAYMENT,'=cmd|x,`);
  });
});

describe('GET /v1/reconciliation/statements', () => {
  it('lists the uploads newest first with who, when, the file name and the counts', async () => {
    const { _id } = (await upload(world, admin, statementCsv([{ reference: 'listed-1', completedAt: '2026-01-01T00:00:00Z' }]), { fileName: 'listed.csv' })).json().results;
    const response = await world.app.inject({ method: 'GET', url: '/v1/reconciliation/statements?limit=2', headers: admin });
    expect(response.statusCode).toBe(200);
    const { docs, total, limit } = response.json().results;
    expect(limit).toBe(2);
    expect(total).toBeGreaterThanOrEqual(8);
    expect(docs[0]).toMatchObject({ _id, fileName: 'listed.csv', lines: 1, counts: { unknownReference: 1 }, uploadedBy: { userName: expect.any(String) }, createdAt: expect.any(String) });
  });
});

describe('who may reconcile', () => {
  it('lets admins and super-users in, and refuses agents, the Afcon-only account and the signed-out', async () => {
    const { _id } = (await upload(world, admin, statementCsv([{ reference: 'roles-1', completedAt: '2026-01-02T00:00:00Z' }]))).json().results;
    const agent = (await world.headersFor('agent')).headers;
    const afcon = (await world.headersFor('admin', { isAfcon: true })).headers;
    const superUser = (await world.headersFor('super-user')).headers;
    const csv = statementCsv([{ reference: 'roles-2', completedAt: '2026-01-02T00:00:00Z' }]);
    for (const [headers, status] of [
      [agent, 403],
      [afcon, 403],
      [{}, 401],
    ] as const) {
      expect((await upload(world, headers, csv)).statusCode).toBe(status);
      for (const url of ['/v1/reconciliation/statements', `/v1/reconciliation/statements/${_id}`, `/v1/reconciliation/statements/${_id}/export`]) {
        expect((await world.app.inject({ method: 'GET', url, headers })).statusCode).toBe(status);
      }
    }
    expect((await statement(_id, '', superUser)).lines).toBe(1);
    expect((await upload(world, superUser, csv)).statusCode).toBe(201);
  });
});

describe('the answers', () => {
  it('are as /docs describes them', async () => {
    const doc = (await world.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const call = await insertCall(world, catalogue, 'processed', at('2026-01-03', '10:00:00'));
    const csv = statementCsv([{ reference: call.reference, status: 'FAILED', completedAt: '2026-01-03T10:00:00Z' }, { reference: 'docs-2', completedAt: '2026-01-03T10:00:00Z' }]);
    const created = await upload(world, admin, csv);
    const again = await upload(world, admin, csv);
    const id = created.json().results._id;
    const get = (url: string) => world.app.inject({ method: 'GET', url, headers: admin });
    const answers: [string, string, { statusCode: number; body: string }][] = [
      ['post', '/v1/reconciliation/statements', created],
      ['post', '/v1/reconciliation/statements', again],
      ['get', '/v1/reconciliation/statements/{id}', await get(`/v1/reconciliation/statements/${id}`)],
      ['get', '/v1/reconciliation/statements', await get('/v1/reconciliation/statements')],
      ['post', '/v1/reconciliation/statements', await upload(world, admin, 'reference\r\n')],
    ];
    const checks = answers.map(([method, path, response]) => [method, path, String(response.statusCode), response.body] as const);
    expect(checks.map(([, , status]) => status)).toEqual(['201', '200', '200', '200', '400']);
    for (const [method, path, status, body] of checks) {
      const schema = doc.paths[path][method].responses[status]?.content?.['application/json']?.schema;
      expect({ path, status, documented: Boolean(schema) }).toEqual({ path, status, documented: true });
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      expect({ path, status, errors: validate(JSON.parse(body)) ? null : validate.errors }).toEqual({ path, status, errors: null });
    }
  });
});

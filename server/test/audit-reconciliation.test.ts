import type { ReconciliationRow } from '../../src/domain/reconciliation';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { countingSms, insertCall, statementCsv, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(60_000);

/**
 * Finance's work on a provider statement leaves audit entries in the transaction of each change:
 * the upload, a ticket issued from a row, a row reviewed, the statement voided, and the rows
 * exported. Repeating an action that changes nothing records nothing.
 */

const sms = countingSms();
let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Headers };

beforeAll(async () => {
  world = await buildTestWorld({ providers: { sms: sms.provider } });
  admin = await world.headersFor('admin');
});
afterAll(() => world.close());

const post = (url: string, payload?: object) => world.app.inject({ method: 'POST', url, headers: admin.headers, ...(payload ? { payload } : {}) });
const who = () => ({ _id: admin.user.id, userName: admin.user.userName, role: 'admin' });

it('records the upload, issue ticket, review, export and void once each', async () => {
  const catalogue = await ticketCatalogue(world);
  const unpaid = await insertCall(world, catalogue, 'failed');
  const unbacked = await insertCall(world, catalogue, 'processed');
  const csv = statementCsv([
    { reference: unpaid.reference, status: 'SUCCESSFUL', completedAt: '2026-05-01T10:00:00Z' },
    { reference: unbacked.reference, status: 'FAILED', completedAt: '2026-05-01T11:00:00Z' },
  ]);
  const uploaded = await upload(world, admin.headers, csv, { fileName: 'may.csv' });
  expect(uploaded.statusCode).toBe(201);
  const id = uploaded.json().results._id as string;
  // The same file again is the statement already imported: nothing new to record.
  expect((await upload(world, admin.headers, csv, { fileName: 'may.csv' })).statusCode).toBe(200);

  const rows = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}`, headers: admin.headers })).json().results.rows.docs as ReconciliationRow[];
  const paidNoTicket = rows.find((row) => row.kind === 'paidNoTicket')!;
  const ticketNoMoney = rows.find((row) => row.kind === 'ticketNoMoney')!;
  for (let i = 0; i < 2; i += 1) {
    expect((await post(`/v1/reconciliation/statements/${id}/rows/${paidNoTicket._id}/issue-ticket`)).statusCode).toBe(200);
    expect((await post(`/v1/reconciliation/statements/${id}/rows/${ticketNoMoney._id}/review`, { note: 'MoMo confirms it failed' })).statusCode).toBe(200);
  }
  expect((await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}/export?kind=paidNoTicket`, headers: admin.headers })).statusCode).toBe(200);
  for (let i = 0; i < 2; i += 1) expect((await post(`/v1/reconciliation/statements/${id}/void`, { reason: 'Uploaded the wrong month' })).statusCode).toBe(200);

  const onStatement = await auditEntries(world, admin.headers, { entityType: 'statement', entityId: id });
  expect(onStatement.map((entry) => entry.action)).toEqual(['statement.void', 'statement.review', 'statement.issue-ticket', 'statement.upload']);
  const [voided, reviewed, issued, uploadedEntry] = onStatement;
  for (const entry of onStatement) expect(entry).toMatchObject({ actor: who(), entity: { type: 'statement', id, label: 'Statement may.csv' } });
  expect(uploadedEntry.changes).toEqual(expect.arrayContaining([{ field: 'lines', before: null, after: 2 }, { field: 'counts.paidNoTicket', before: null, after: 1 }]));
  expect(issued.changes).toEqual(expect.arrayContaining([{ field: 'reference', before: null, after: unpaid.reference }, { field: 'action', before: null, after: 'ticket issued' }]));
  expect(reviewed.changes).toEqual(expect.arrayContaining([{ field: 'note', before: null, after: 'MoMo confirms it failed' }]));
  expect(voided).toMatchObject({ reason: 'Uploaded the wrong month', changes: [{ field: 'voided', before: false, after: true }] });

  const [exported] = await auditEntries(world, admin.headers, { action: 'export.statement' });
  expect(exported).toMatchObject({ actor: who(), entity: { type: 'export' } });
  expect(exported.changes).toEqual(expect.arrayContaining([{ field: 'filter.statement', before: null, after: id }, { field: 'filter.kind', before: null, after: 'paidNoTicket' }, { field: 'rows', before: null, after: 1 }]));

  const verified = await world.app.inject({ method: 'GET', url: '/v1/audit/verify', headers: admin.headers });
  expect(verified.json().results).toMatchObject({ ok: true, firstBrokenId: null });
});

import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ReconciliationRow, ReconciliationStatement } from '../../src/domain/reconciliation';
import { buildTestWorld, type TestWorld } from './helpers';
import { insertCall, statementCsv, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(60_000);

/**
 * DESIGN §7: a manager voids a statement with a reason; it leaves the default list (the voided
 * ones are listed apart), keeps showing what it was and who voided it, and no longer vouches for
 * a call's payment when a later statement looks for the calls it has no line for.
 */

let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Headers };
let catalogue: Awaited<ReturnType<typeof ticketCatalogue>>;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = await world.headersFor('admin');
  catalogue = await ticketCatalogue(world);
});
afterAll(() => world.close());

const voidStatement = (id: string, payload: unknown, headers = admin.headers) =>
  world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${id}/void`, headers, payload: payload as object });
const get = (url: string, headers = admin.headers) => world.app.inject({ method: 'GET', url, headers });
const listed = async (query = '') => ((await get(`/v1/reconciliation/statements?limit=100${query}`)).json().results.docs as ReconciliationStatement[]).map((s) => s._id);

async function uploaded(csv: string): Promise<string> {
  const response = await upload(world, admin.headers, csv);
  expect(response.statusCode).toBe(201);
  return response.json().results._id;
}

describe('POST /v1/reconciliation/statements/{id}/void', () => {
  it('voids once with the reason: out of the default list, in the voided one, and shown as voided', async () => {
    const id = await uploaded(statementCsv([{ reference: 'void-1', completedAt: '2025-01-01T10:00:00Z' }]));
    expect(await listed()).toContain(id);

    const response = await voidStatement(id, { reason: '  Wrong month: the provider sent December again  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Statement voided',
      results: { _id: id, voidedAt: expect.any(String), voidedBy: { _id: admin.user.id, userName: admin.user.userName }, voidReason: 'Wrong month: the provider sent December again' },
    });
    const again = await voidStatement(id, { reason: 'Another reason' });
    expect(again.json()).toMatchObject({ message: 'This statement was voided already', results: { voidReason: 'Wrong month: the provider sent December again' } });

    expect(await listed()).not.toContain(id);
    expect(await listed('&voided=true')).toContain(id);
    expect(await listed('&voided=false')).not.toContain(id);
    const detail = (await get(`/v1/reconciliation/statements/${id}`)).json().results;
    expect(detail).toMatchObject({ voidedAt: response.json().results.voidedAt, voidReason: 'Wrong month: the provider sent December again', rows: { total: 1 } });
    const standing = (await get(`/v1/reconciliation/statements/${await uploaded(statementCsv([{ reference: 'void-2', completedAt: '2025-01-02T10:00:00Z' }]))}`)).json().results;
    expect(standing).toMatchObject({ voidedAt: null, voidedBy: null, voidReason: null });
  });

  it('no longer counts for "already shown elsewhere", and its file may be uploaded again', async () => {
    const paid = await insertCall(world, catalogue, 'processed', new Date('2025-02-01T10:30:00Z'));
    const first = statementCsv([{ reference: paid.reference, completedAt: '2025-02-01T10:30:00Z' }]);
    const firstId = await uploaded(first);
    const later = statementCsv([{ reference: 'edge-1', completedAt: '2025-02-01T10:00:00Z' }, { reference: 'edge-2', completedAt: '2025-02-01T11:00:00Z' }]);
    const ticketNoMoney = async (id: string) => ((await get(`/v1/reconciliation/statements/${id}?kind=ticketNoMoney`)).json().results.rows.docs as ReconciliationRow[]).map((row) => row.reference);
    // Shown as paid by the first statement: not reported by the later one.
    expect(await ticketNoMoney(await uploaded(later))).toEqual([]);

    expect((await voidStatement(firstId, { reason: 'Duplicate of the provider’s corrected file' })).statusCode).toBe(200);
    expect(await ticketNoMoney(await uploaded(`${later}\r\n`))).toEqual([paid.reference]);
    // The same bytes again make a new statement once the first is voided.
    const again = await upload(world, admin.headers, first);
    expect(again.statusCode).toBe(201);
    expect(again.json().results._id).not.toBe(firstId);
  });

  it("refuses acting on a voided statement's rows, keeps what was done on them, and answers 404 for no statement", async () => {
    const [issued, waiting] = await Promise.all([insertCall(world, catalogue, 'failed', new Date('2025-03-01T10:00:00Z')), insertCall(world, catalogue, 'failed', new Date('2025-03-01T10:00:00Z'))]);
    const id = await uploaded(statementCsv([issued, waiting].map((call) => ({ reference: call.reference, completedAt: '2025-03-01T10:00:00Z' }))));
    const [first, second] = (await get(`/v1/reconciliation/statements/${id}`)).json().results.rows.docs as ReconciliationRow[];
    const issue = (rowId: string) => world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${id}/rows/${rowId}/issue-ticket`, headers: admin.headers });
    expect((await issue(first._id)).json().message).toBe('Ticket issued');
    await voidStatement(id, { reason: 'Test file' });
    const refused = await issue(second._id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The statement was voided: its rows are no longer acted on');
    const rows = (await get(`/v1/reconciliation/statements/${id}`)).json().results.rows.docs as ReconciliationRow[];
    expect(rows.map((row) => [row.action, row.transaction?.isComplete])).toEqual([
      ['ticket_issued', true],
      [null, false],
    ]);
    expect((await voidStatement(crypto.randomUUID(), { reason: 'x' })).statusCode).toBe(404);
  });

  it('needs a reason without direction controls, and lets only admins and super-users void', async () => {
    const id = await uploaded(statementCsv([{ reference: 'void-roles', completedAt: '2025-04-01T10:00:00Z' }]));
    for (const [body, message] of [
      [{}, 'Please say why the statement is voided'],
      [{ reason: '   ' }, 'Please say why the statement is voided'],
      [{ reason: 'x'.repeat(501) }, 'Must be at most 500 characters'],
      [{ reason: 'wrong \u202Efile' }, 'Must not contain text-direction control characters'],
      [{ reason: 'a\u0000b' }, 'Invalid value'],
    ] as const) {
      const response = await voidStatement(id, body);
      expect({ body, status: response.statusCode, errors: response.json().errors }).toEqual({ body, status: 400, errors: [{ field: 'reason', message }] });
    }
    for (const [headers, status] of [
      [(await world.headersFor('agent')).headers, 403],
      [(await world.headersFor('admin', { isAfcon: true })).headers, 403],
      [{}, 401],
    ] as const) {
      expect((await voidStatement(id, { reason: 'no' }, headers)).statusCode).toBe(status);
    }
    expect((await get(`/v1/reconciliation/statements/${id}`)).json().results.voidedAt).toBeNull();
    expect((await voidStatement(id, { reason: 'Test upload' }, (await world.headersFor('super-user')).headers)).statusCode).toBe(200);
  });

  it('answers as /docs describes it', async () => {
    const doc = (await get('/docs/json')).json();
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const id = await uploaded(statementCsv([{ reference: 'void-docs', completedAt: '2025-05-01T10:00:00Z' }]));
    const answers = [await voidStatement(id, { reason: 'Docs' }), await voidStatement(id, {}), await voidStatement(crypto.randomUUID(), { reason: 'x' }), await get('/v1/reconciliation/statements?voided=true')];
    const operation = (method: string, path: string) => doc.paths[path][method];
    const checks = [
      [operation('post', '/v1/reconciliation/statements/{id}/void'), answers[0]],
      [operation('post', '/v1/reconciliation/statements/{id}/void'), answers[1]],
      [operation('post', '/v1/reconciliation/statements/{id}/void'), answers[2]],
      [operation('get', '/v1/reconciliation/statements'), answers[3]],
    ] as const;
    expect(checks.map(([, response]) => response.statusCode)).toEqual([200, 400, 404, 200]);
    for (const [op, response] of checks) {
      const schema = op.responses[String(response.statusCode)]?.content?.['application/json']?.schema;
      expect(Boolean(schema)).toBe(true);
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      expect(validate(response.json()) ? null : validate.errors).toBeNull();
    }
    expect((operation('get', '/v1/reconciliation/statements').parameters as { name: string }[]).map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'voided']));
  });
});

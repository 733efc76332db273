import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { buildTestWorld, type TestWorld } from './helpers';
import { reconciliationTableSizes, STATEMENT_HEADER, statementCsv, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(120_000);

/**
 * DESIGN §7: a bad statement file is refused with the line and column of each problem, in the
 * failure envelope, small, and writes nothing.
 */

let world: TestWorld;
let admin: Headers;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
});
afterAll(() => world.close());

const line = (reference: string, amount = '20000', currency = 'UGX', status = 'SUCCESSFUL', completedAt = '2026-05-01T10:00:00Z') => [reference, amount, currency, status, completedAt].join(',');

/** Uploads a bad file and answers its refusal, having checked that nothing was written. */
async function refused(csv: string | Buffer | Readable, contentType = 'text/csv', query = '') {
  const before = await reconciliationTableSizes(world);
  const response =
    csv instanceof Readable
      ? await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements${query}`, headers: { ...admin, 'content-type': contentType }, payload: csv })
      : await upload(world, admin, csv, { contentType });
  expect(await reconciliationTableSizes(world)).toEqual(before);
  expect(response.rawPayload.length).toBeLessThan(4096);
  const body = response.json();
  expect(body).toMatchObject({ status: false, message: expect.any(String), errors: expect.any(Array) });
  return { status: response.statusCode, message: body.message as string, errors: body.errors as { field: string; message: string }[] };
}

describe('bad statement files', () => {
  it('names a missing header column', async () => {
    const answer = await refused(`reference,amount,currency,status\r\n${line('r-1')}\r\n`);
    expect(answer).toMatchObject({ status: 400, message: 'Line 1: the header has no column completedAt (expected reference,amount,currency,status,completedAt)' });
    expect(answer.errors).toEqual([{ field: 'completedAt', message: answer.message }]);
    // A file of lines without a header reads its first line as the header.
    expect((await refused(`${line('r-1')}\r\n${line('r-2')}\r\n`)).errors.map((e) => e.field)).toEqual(['reference', 'amount', 'currency', 'status', 'completedAt']);
  });

  it('names the line and column of each value of the wrong type, and keeps the values out of the answer', async () => {
    const csv = [STATEMENT_HEADER, line('ok-1'), line('r-2', 'abc'), line('r-3', '20000', 'US Dollars'), line('r-4', '20000', 'UGX', 'PAID'), line('r-5', '20000', 'UGX', 'FAILED', 'yesterday'), line('r-6', '-5'), line('r-7', '1,000'), line('r-8', '1.005')].join('\r\n');
    const answer = await refused(csv);
    expect(answer.status).toBe(400);
    expect(answer.message).toBe('Line 3, column amount: not a number (digits, at most two decimals, no sign or separators)');
    expect(answer.errors.map((e) => e.message.replace(/:.*/, ''))).toEqual([
      'Line 3, column amount',
      'Line 4, column currency',
      'Line 5, column status',
      'Line 6, column completedAt',
      'Line 7, column amount',
      // '1,000' unquoted is two values: every value after it moves one column right.
      'Line 8, column currency',
      'Line 8, column status',
      'Line 8, column completedAt',
      'Line 9, column amount',
    ]);
    expect(answer.errors.map((e) => e.field)).toEqual(['amount', 'currency', 'status', 'completedAt', 'amount', 'currency', 'status', 'completedAt', 'amount']);
    expect(JSON.stringify(answer)).not.toMatch(/abc|US Dollars|PAID|yesterday/);
    expect((await refused([STATEMENT_HEADER, line('r-9', '20000', 'UGX', 'SUCCESSFUL', '2026-02-30T10:00:00Z')].join('\n'))).message).toMatch(/^Line 2, column completedAt: not a date and time/);
  });

  it('stops at ten errors', async () => {
    const csv = [STATEMENT_HEADER, ...Array.from({ length: 40 }, (_, i) => line(`r-${i}`, 'x'))].join('\r\n');
    const answer = await refused(csv);
    expect(answer.errors).toHaveLength(10);
    expect(answer.errors.at(-1)?.message).toMatch(/^Line 11, column amount/);
  });

  it('refuses NUL and other control characters, empty values, missing values and a reference given twice', async () => {
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('r\u00001')}\r\n`)).message).toBe('Line 2, column reference: contains a NUL character');
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('r-1', '20000', 'U\u001bG')}\r\n`)).message).toBe('Line 2, column currency: contains a control character');
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('  ')}\r\n`)).message).toBe('Line 2, column reference: empty');
    expect((await refused(`${STATEMENT_HEADER}\r\nr-1,20000\r\n`)).errors.map((e) => e.field)).toEqual(['currency', 'status', 'completedAt']);
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('r-1')}\r\n${line('r-2')}\r\n${line('r-1')}\r\n`)).message).toBe('Line 4, column reference: the same reference as line 2');
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('x'.repeat(129))}\r\n`)).message).toBe('Line 2, column reference: longer than 128 characters');
  });

  it('refuses a quote left open or closed in the middle of a value', async () => {
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('r-1')}\r\n"r-2,20000,UGX,SUCCESSFUL,2026-05-01T10:00:00Z\r\n`)).message).toBe(
      'Line 3: a quoted value opened on this line is not closed (it runs to the end of the file)',
    );
    expect((await refused(`${STATEMENT_HEADER}\r\n"r-1"x,20000,UGX,SUCCESSFUL,2026-05-01T10:00:00Z\r\n`)).message).toBe('Line 2: a closing quote is not followed by a comma or the end of the line');
  });

  it('names the problems before a quote left open as well as the quote, on the line it was opened', async () => {
    const csv = [STATEMENT_HEADER, line('q-1', 'lots'), line('q-2'), line('q-3', '20000', 'UGX', 'PAID'), `"q-4,20000,UGX,SUCCESSFUL,2026-05-01T10:00:00Z`, line('q-5', 'x'), line('q-6')].join('\r\n');
    expect((await refused(csv)).errors).toEqual([
      { field: 'amount', message: 'Line 2, column amount: not a number (digits, at most two decimals, no sign or separators)' },
      { field: 'status', message: 'Line 4, column status: must be SUCCESSFUL or FAILED' },
      { field: 'file', message: 'Line 5: a quoted value opened on this line is not closed (it runs to the end of the file)' },
    ]);
  });

  it('says once that a file uses semicolons, rather than a missing column each', async () => {
    const answer = await refused(`\ufeffreference;amount;currency;status;completedAt\r\nr-1;20000;UGX;FAILED;2026-05-01T10:00:00Z\r\n`);
    expect(answer).toMatchObject({ status: 400, message: 'Line 1: the file uses ; — use commas between values', errors: [{ field: 'file', message: 'Line 1: the file uses ; — use commas between values' }] });
  });

  it('refuses bytes that are not UTF-8 rather than store replacement characters, naming the line and column', async () => {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const inReference = await refused(Buffer.concat([Buffer.from(`${STATEMENT_HEADER}\r\n${line('ok-1')}\r\n`), latin1(`relev\xe9-2,20000,UGX,SUCCESSFUL,2026-05-01T10:00:00Z\r\n`)]));
    expect(inReference.errors).toEqual([{ field: 'reference', message: 'Line 3, column reference: not UTF-8 text (save the file as UTF-8)' }]);
    // In a column the statement does not read, the file is still not UTF-8.
    const inExtra = await refused(Buffer.concat([Buffer.from(`${STATEMENT_HEADER},note\r\n${line('ok-1')},fine\r\n`), latin1(`${line('ok-2')},pay\xe9\r\n`)]));
    expect(inExtra.errors).toEqual([{ field: 'file', message: 'Line 3: not UTF-8 text (save the file as UTF-8)' }]);
    // A character cut off by the end of the file, and an overlong form.
    expect((await refused(Buffer.concat([Buffer.from(`${STATEMENT_HEADER}\r\n${line('ok-1')},`), Buffer.from([0xe2, 0x82])]))).errors.at(-1)?.message).toMatch(/not UTF-8 text/);
    expect((await refused(Buffer.concat([Buffer.from(`${STATEMENT_HEADER}\r\nr-`), Buffer.from([0xc0, 0xaf]), Buffer.from(',1,UGX,FAILED,2026-05-01T10:00:00Z\r\n')]))).message).toBe(
      'Line 2, column reference: not UTF-8 text (save the file as UTF-8)',
    );
  });

  it('refuses an offset no clock has and applies the year limit after the offset', async () => {
    const times = ['2026-05-01T10:00:00+99:99', '2026-05-01T10:00:00+14:01', '2026-05-01T10:00:00-1500', '2026-05-01T10:00:00+03:60', '2100-12-31T23:00:00-05:00', '2000-01-01T01:00:00+03:00'];
    const answer = await refused([STATEMENT_HEADER, ...times.map((time, i) => line(`t-${i}`, '20000', 'UGX', 'FAILED', time))].join('\r\n'));
    const offset = 'the offset is not one a clock has (from -14:00 to +14:00)';
    expect(answer.errors.map((e) => e.message)).toEqual([
      `Line 2, column completedAt: ${offset}`,
      `Line 3, column completedAt: ${offset}`,
      `Line 4, column completedAt: ${offset}`,
      `Line 5, column completedAt: ${offset}`,
      'Line 6, column completedAt: outside the years 2000 to 2100',
      'Line 7, column completedAt: outside the years 2000 to 2100',
    ]);
    // The year is the instant's: late on the last evening of 2100 east of UTC, and early in 2000 west of it, are within.
    for (const [i, time] of ['2100-12-31T23:00:00+14:00', '1999-12-31T23:00:00-03:00'].entries()) {
      const response = await upload(world, admin, [STATEMENT_HEADER, line(`t-ok-${i}`, '20000', 'UGX', 'FAILED', time)].join('\r\n'));
      expect({ time, status: response.statusCode }).toEqual({ time, status: 201 });
    }
  });

  it('refuses text-direction controls in a value and in the file name', async () => {
    expect((await refused(`${STATEMENT_HEADER}\r\n${line('inv\u202Eoice')}\r\n`)).errors).toEqual([{ field: 'reference', message: 'Line 2, column reference: contains a text-direction control character' }]);
    const csv = statementCsv([{ reference: 'named-1', completedAt: '2026-05-01T10:00:00Z' }]);
    const byQuery = await refused(Readable.from([csv]), 'text/csv', `?fileName=${encodeURIComponent('invoice\u202Evsc.exe')}`);
    expect(byQuery).toMatchObject({ status: 400, errors: [{ field: 'fileName', message: 'Must not contain text-direction control characters' }] });
    const before = await reconciliationTableSizes(world);
    const byHeader = await world.app.inject({ method: 'POST', url: '/v1/reconciliation/statements', headers: { ...admin, 'content-type': 'text/csv', 'x-file-name': encodeURIComponent('statement\u2066.csv') }, payload: csv });
    expect(byHeader.statusCode).toBe(400);
    expect(byHeader.json().errors).toEqual([{ field: 'fileName', message: 'Must not contain text-direction control characters' }]);
    expect(await reconciliationTableSizes(world)).toEqual(before);
  });

  it('refuses an empty file, a header alone and a file of blank lines', async () => {
    expect(await refused('')).toMatchObject({ status: 400, message: 'The file is empty', errors: [{ field: 'file', message: 'The file is empty' }] });
    expect((await refused(`\ufeff${STATEMENT_HEADER}\r\n\r\n`)).message).toBe('The statement has no lines after its header');
    expect((await refused('\r\n\r\n  \r\n')).status).toBe(400);
  });

  it('refuses 10 MB of garbage at once and cleanly, having read it to the end', async () => {
    const started = Date.now();
    const garbage = await refused(crypto.randomBytes(10 * 1024 * 1024));
    expect(garbage.status).toBe(400);
    expect(garbage.message).toMatch(/^Line 1/);
    // One long line of text without a break: refused at the record limit, not parsed to its end.
    const oneLine = await refused(Buffer.alloc(10 * 1024 * 1024, 'x'));
    expect(oneLine.message).toBe('Line 1: the line is too long for a statement (is this a CSV file?)');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses a file over 20 MB with 413, by its length or as it streams in', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024, 'a');
    expect(await refused(big)).toMatchObject({ status: 413, message: 'The file is larger than 20 MB' });
    // Sent without a length (chunked): counted as it arrives.
    const stream = Readable.from((function* () {
      for (let i = 0; i < 21; i += 1) yield i === 0 ? Buffer.from(`${STATEMENT_HEADER}\r\n${'r,1,UGX,FAILED,2026-05-01T10:00:00Z\r\n'.repeat(1000)}`) : Buffer.alloc(1024 * 1024, '\n');
    })());
    expect(await refused(stream)).toMatchObject({ status: 413, message: 'The file is larger than 20 MB' });
  });

  it('answers 415 to a body that is not CSV, before reading it', async () => {
    const csv = statementCsv([{ reference: 'r-1' }]);
    for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/vnd.ms-excel']) {
      expect(await refused(type === 'application/json' ? JSON.stringify({ csv }) : csv, type)).toMatchObject({ status: 415, message: 'Send the statement as text/csv', errors: [{ field: 'content-type' }] });
    }
    const untyped = await world.app.inject({ method: 'POST', url: '/v1/reconciliation/statements', headers: admin, payload: csv });
    expect(untyped.statusCode).toBe(415);
  });

  it('never answers 5xx or writes anything for any text, and accepts what it reads', async () => {
    const cell = fc.oneof(
      fc.constantFrom('r-1', '20000', '20000.5', 'UGX', 'SUCCESSFUL', 'FAILED', '2026-05-01T10:00:00Z', '2026-05-01 10:00', '', ' ', '"', '""', '"a,b"', '\u0000', '\ufeff', '\r', '\n'),
      fc.string({ maxLength: 12 }),
    );
    const text = fc.oneof(
      fc.array(fc.array(cell, { maxLength: 7 }).map((cells) => cells.join(',')), { maxLength: 6 }).map((lines) => [STATEMENT_HEADER, ...lines].join('\r\n')),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    await fc.assert(
      fc.asyncProperty(text, async (csv) => {
        const response = await upload(world, admin, csv);
        expect(response.statusCode).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expect(response.rawPayload.length).toBeLessThan(4096);
          expect(response.json()).toMatchObject({ status: false, errors: expect.any(Array) });
        }
      }),
      { seed: 20260501, numRuns: 150 },
    );
  });
});

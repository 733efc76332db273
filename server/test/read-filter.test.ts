import { readFilter } from '../src/access/transaction-scope';
import { HttpError } from '../src/http/http-error';

const refusal = async (input: unknown) => {
  try {
    await readFilter(input);
  } catch (error) {
    if (error instanceof HttpError) return error.errors;
    throw error;
  }
  throw new Error('the filter was taken');
};

describe('readFilter', () => {
  it('reads a filter the same the second time, and hands each caller its own copy', async () => {
    const input = { name: ' *217*1# ', date: '2026-11-30' };
    const first = await readFilter(input);
    expect(first).toEqual({ name: '*217*1#', date: '2026-11-30', dateFrom: undefined, dateTo: undefined, status: undefined });
    first.name = 'changed by the first caller';
    expect(await readFilter({ ...input })).toEqual({ name: '*217*1#', date: '2026-11-30', dateFrom: undefined, dateTo: undefined, status: undefined });
  });

  it('tells apart filters whose texts run together', async () => {
    expect(await readFilter({ name: 'a', date: '' })).toMatchObject({ name: 'a', date: undefined });
    expect(await refusal({ name: 'a', status: 'done' })).toEqual([{ field: 'status', message: 'Invalid status' }]);
    expect(await readFilter({ name: 'a', status: 'failed' })).toMatchObject({ name: 'a', status: 'failed' });
  });

  it('refuses a bad filter every time it is sent, after a good one and after itself', async () => {
    await readFilter({ date: '2026-11-30' });
    for (let round = 0; round < 2; round++) {
      expect(await refusal({ date: '2026-11-31' })).toEqual([{ field: 'date', message: 'Invalid date' }]);
      expect(await refusal({ dateFrom: '2026-11-01' })).toEqual([{ field: 'dateTo', message: 'Please give both ends of the range' }]);
      expect(await refusal({ date: { day: '2026-11-30' } })).toEqual([{ field: 'date', message: expect.any(String) }]);
    }
  });
});

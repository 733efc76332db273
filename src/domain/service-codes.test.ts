import { compareServiceCodes } from './service-codes';

describe('service codes in natural order', () => {
  it('compares the numbers of each part as numbers', () => {
    const codes = ['*217*25#', '*217*2#', '*284*24#', '*217*10#', '*217*1#', '*217#', '*50*1#'];
    expect([...codes].sort(compareServiceCodes)).toEqual(['*50*1#', '*217#', '*217*1#', '*217*2#', '*217*10#', '*217*25#', '*284*24#']);
  });
});

import { rememberWithin } from './bounded-memory';

describe('rememberWithin', () => {
  it('keeps up to its most, then starts again with the newest', () => {
    const memory = new Map<string, number>();
    for (const [i, key] of ['a', 'b', 'c'].entries()) rememberWithin(memory, 3, key, i);
    expect([...memory]).toEqual([['a', 0], ['b', 1], ['c', 2]]);
    rememberWithin(memory, 3, 'd', 3);
    expect([...memory]).toEqual([['d', 3]]);
  });
});

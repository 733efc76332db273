import type { LiveTransaction } from './live';
import { isNewInView } from './live-views';

const TODAY = '2026-11-25';
const call = (change: Partial<LiveTransaction> = {}): LiveTransaction => ({
  _id: 'a', name: '*217*1#', phoneNumber: '256770000001', status: 'pending', isResolved: false, createdAt: `${TODAY}T10:00:00.000Z`, ...change,
});

describe('isNewInView', () => {
  it("grows today's lists only, of the call's code or of every code", () => {
    expect(isNewInView(call(), { name: '*217*1#', date: TODAY }, TODAY)).toBe(true);
    expect(isNewInView(call(), { name: '', date: TODAY }, TODAY)).toBe(true);
    expect(isNewInView(call(), { name: '*217*2#', date: TODAY }, TODAY)).toBe(false);
    expect(isNewInView(call(), { name: '*217*1#', date: '2026-11-24' }, TODAY)).toBe(false);
  });

  it('on the lists of every status, a call is new when made (pending), not when a call of another page settles', () => {
    expect(isNewInView(call({ status: 'processed' }), { date: TODAY }, TODAY)).toBe(false);
    expect(isNewInView(call({ status: 'failed' }), { date: TODAY }, TODAY)).toBe(false);
    expect(isNewInView(call({ status: 'processed' }), { date: TODAY }, TODAY, `${TODAY}T10:00:01.000Z`)).toBe(false);
  });

  it('on page 1 of every status, a call first heard of settled is new when newer than every row shown (made and paid within one write)', () => {
    expect(isNewInView(call({ status: 'processed' }), { date: TODAY }, TODAY, `${TODAY}T09:59:59.000Z`)).toBe(true);
    expect(isNewInView(call({ status: 'failed' }), { name: '*217*1#', date: TODAY }, TODAY, `${TODAY}T09:59:59.000Z`)).toBe(true);
    expect(isNewInView(call({ status: 'processed' }), { date: TODAY }, TODAY, null)).toBe(true);
    expect(isNewInView(call({ status: 'processed' }), { date: '2026-11-24' }, TODAY, null)).toBe(false);
  });

  it('on Failed, a call is new when it fails, not when made nor when resolved', () => {
    const failed = { date: TODAY, failedOnly: true };
    expect(isNewInView(call({ status: 'failed' }), failed, TODAY)).toBe(true);
    expect(isNewInView(call(), failed, TODAY)).toBe(false);
    expect(isNewInView(call({ status: 'failed', isResolved: true }), failed, TODAY)).toBe(false);
  });
});

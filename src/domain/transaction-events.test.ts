import { MESSAGE_STATUS, shortMessageStatus } from './transaction-events';

describe('shortMessageStatus', () => {
  it("drops 'Payment' from a failed call's reason, which the Status beside it already says", () => {
    expect(shortMessageStatus(MESSAGE_STATUS.paymentFailed)).toBe('Refused');
    expect(shortMessageStatus(MESSAGE_STATUS.paymentTimedOut)).toBe('Timed out');
    expect(shortMessageStatus(MESSAGE_STATUS.paymentNeverRequested)).toBe('Not requested');
  });

  it('keeps a ticket SMS status as it is, and nothing as nothing', () => {
    expect(shortMessageStatus(MESSAGE_STATUS.delivered)).toBe('Delivered');
    expect(shortMessageStatus('Something new')).toBe('Something new');
    expect(shortMessageStatus(null)).toBe('');
  });
});

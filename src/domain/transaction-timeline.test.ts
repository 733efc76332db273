import { formatDateTimeSeconds } from './format';
import { eventActorText, eventDetailLines, handsetScreen, mayResendTickets } from './transaction-timeline';

describe('transaction timeline wording', () => {
  it("shows an event's time with seconds in the service zone", () => {
    expect(formatDateTimeSeconds('2026-11-22T09:05:07Z')).toBe('22 November 2026 12:05:07 pm');
    expect(formatDateTimeSeconds('2026-11-22T09:05:07Z', 'UTC')).toBe('22 November 2026 09:05:07 am');
    expect(formatDateTimeSeconds('not a time')).toBe('N/A');
  });

  it('names who or what caused an event', () => {
    expect(eventActorText({ actor: 'customer' })).toBe('Customer');
    expect(eventActorText({ actor: 'provider:momo' })).toBe('Provider momo');
    expect(eventActorText({ actor: 'sweeper' })).toBe('Payment timeout check');
    expect(eventActorText({ actor: 'system' })).toBe('Dialdesk');
    expect(eventActorText({ actor: 'user', actorUserName: 'kato' })).toBe('kato');
    expect(eventActorText({ actor: 'user', actorUserName: null })).toBe('A staff member');
  });

  it("shows a hop's last input and its reply without CON/END", () => {
    expect(handsetScreen({ input: '', reply: 'CON Choose\n1. VIP' })).toEqual({ input: null, text: 'Choose\n1. VIP', ended: false });
    expect(handsetScreen({ input: '2*1', reply: 'END Approve the payment' })).toEqual({ input: '1', text: 'Approve the payment', ended: true });
    expect(handsetScreen({ input: '3' })).toEqual({ input: '3', text: '', ended: false });
  });

  it("lists an event's facts with labels, amounts in UGX, empty ones and a hop's input and reply left out", () => {
    expect(eventDetailLines({ kind: 'payment_requested', detail: { amount: 6000, provider: 'local', reference: null } })).toEqual([
      { label: 'Amount', value: 'UGX 6,000' },
      { label: 'Provider', value: 'local' },
    ]);
    expect(eventDetailLines({ kind: 'ussd_hop', detail: { input: '1', reply: 'CON x', pageNumber: 2 } })).toEqual([{ label: 'Page number', value: '2' }]);
  });

  it("names a resolve's reason by its label and shows its note", () => {
    expect(eventDetailLines({ kind: 'resolved', detail: { reason: 'could-not-reach', note: 'No answer twice' } })).toEqual([
      { label: 'Reason', value: 'Could not reach' },
      { label: 'Note', value: 'No answer twice' },
    ]);
    expect(eventDetailLines({ kind: 'resolved', detail: { reason: null, note: null } })).toEqual([]);
  });

  it('offers Resend ticket to managers, customer care and agents, not the Afcon-only account', () => {
    expect(mayResendTickets({ role: 'admin', isAfcon: false })).toBe(true);
    expect(mayResendTickets({ role: 'super-user', isAfcon: false })).toBe(true);
    expect(mayResendTickets({ role: 'agent', isAfcon: false })).toBe(true);
    expect(mayResendTickets({ role: 'agent', isAfcon: true })).toBe(false);
    expect(mayResendTickets({ role: 'customer-care', isAfcon: false })).toBe(true);
    expect(mayResendTickets(null)).toBe(false);
  });
});

import type { LoginUser } from './entities';
import { formatDateTime, formatMoney } from './format';
import { resolveReasonLabel } from './resolution';
import { refundReasonLabel } from './refunds';
import { readsEveryCode } from './roles';
import type { TransactionEvent } from './transaction-events';

/**
 * How the 'Details' drawer words a call's events (DESIGN §6): who or what caused each, a USSD
 * hop as the handset showed it, and the other facts as labelled lines.
 */

/** Who or what caused an event, in support's words. */
export function eventActorText(event: Pick<TransactionEvent, 'actor' | 'actorUserName'>): string {
  const { actor } = event;
  if (actor === 'user') return event.actorUserName ?? 'A staff member';
  if (actor === 'customer') return 'Customer';
  if (actor === 'system') return 'Dialdesk';
  if (actor === 'sweeper') return 'Payment timeout check';
  if (actor.startsWith('provider:')) return `Provider ${actor.slice('provider:'.length)}`;
  return actor;
}

export interface HandsetScreen {
  /** What the customer typed on this hop; null when they dialled the code. */
  input: string | null;
  /** The reply without its CON/END prefix. */
  text: string;
  /** END: the session closed after this screen. */
  ended: boolean;
}

/**
 * A USSD hop's input and reply. Africa's Talking sends every input so far joined by `*`, so the
 * hop's own input is the last part; an empty text is the dial itself.
 */
export function handsetScreen(detail: TransactionEvent['detail']): HandsetScreen {
  const text = typeof detail.input === 'string' ? detail.input : '';
  const reply = typeof detail.reply === 'string' ? detail.reply : '';
  const [, prefix, rest] = /^(CON|END)\s?([\s\S]*)$/.exec(reply) ?? [null, null, reply];
  return { input: text === '' ? null : (text.split('*').at(-1) ?? text), text: rest, ended: prefix === 'END' };
}

const DETAIL_LABELS: Record<string, string> = {
  status: 'Status',
  provider: 'Provider',
  providerRef: 'Provider reference',
  providerStatus: 'Provider status',
  reference: 'Payment reference',
  amount: 'Amount',
  failureReason: 'Reason',
  reason: 'Reason',
  statement: 'Statement',
  line: 'Statement line',
  completedAt: 'Provider completed at',
  previously: 'Previously',
  note: 'Note',
};

/** Facts kept for the API's readers but not shown: a refund's id repeats on each of its steps (its reference says which). */
const UNSHOWN = new Set(['refundId']);

/** A fact's value as support reads it: money in UGX, a resolve reason by its label. */
function detailValue(kind: TransactionEvent['kind'], key: string, value: string | number | boolean): string {
  if (key === 'amount' && typeof value === 'number') return `UGX ${formatMoney(value)}`;
  if ((kind === 'resolved' || kind === 'resolve_undone') && key === 'reason' && typeof value === 'string') return resolveReasonLabel(value);
  if (kind === 'refund_requested' && key === 'reason' && typeof value === 'string') return refundReasonLabel(value);
  if (key === 'completedAt' && typeof value === 'string') return formatDateTime(value);
  return String(value);
}

/** 'providerRef' → 'Provider ref': a readable name for a fact no label was written for. */
const humanize = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** An event's facts as label and value, empty ones left out (a hop's input and reply are shown as a screen). */
export function eventDetailLines(event: Pick<TransactionEvent, 'kind' | 'detail'>): { label: string; value: string }[] {
  return Object.entries(event.detail)
    .filter(([key, value]) => value !== null && value !== '' && !UNSHOWN.has(key) && !(event.kind === 'ussd_hop' && (key === 'input' || key === 'reply')))
    .map(([key, value]) => ({ label: DETAIL_LABELS[key] ?? humanize(key), value: detailValue(event.kind, key, value as string | number | boolean) }));
}

/** 'Resend ticket' is for admin, super-user and customer care, and agents on their own calls (the only ones their lists show). */
export function mayResendTickets(user: Pick<LoginUser, 'role' | 'isAfcon'> | null | undefined): boolean {
  return Boolean(user && !user.isAfcon && (readsEveryCode(user.role) || user.role === 'agent'));
}

import { sql } from 'drizzle-orm';
import { TICKET_SMS_STATUS } from '../../src/domain/transaction-events';
import type { Db, DbOrTx } from './db/client';
import { preparedRows } from './db/prepared';
import type { SmsProvider } from './providers/sms';

export interface TicketSmsCall {
  id: string;
  phoneNumber: string;
  ticketMessage: string;
}

export interface TicketSmsCause {
  /** 'sms_sent' when a settled payment sends it, 'ticket_resent' when staff send it again. */
  kind: 'sms_sent' | 'ticket_resent';
  actor: string;
  actorUserId?: string | null;
}

/** A ticket SMS's status on its call and its event, prepared once per connection. */
const recordedStatement = sql`
  with updated as (
    update transactions set message_statuses = ${sql.placeholder('status')}, ticket_sms_ref = coalesce(${sql.placeholder('providerRef')}::text, ticket_sms_ref)
    where id = ${sql.placeholder('id')}
    returning id
  )
  insert into transaction_events (transaction_id, kind, actor, actor_user_id, detail)
  select id, ${sql.placeholder('kind')}::text, ${sql.placeholder('actor')}::text, ${sql.placeholder('actorUserId')}::uuid, ${sql.placeholder('detail')}::jsonb from updated`;

/**
 * Sends a call's ticket through the SMS provider (DESIGN §6) and records what happened: the call's
 * `messageStatuses` ('Sent' or 'Failed', later moved by the delivery report), the provider's id in
 * `ticketSmsRef`, and an event on the call's timeline. Used by settlement and by 'Resend ticket',
 * so both leave the same trace. A provider that throws counts as a failed send, never an error.
 */
export async function sendTicketSms(db: DbOrTx, sms: SmsProvider, call: TicketSmsCall, cause: TicketSmsCause) {
  const sent = await sms
    .send({ phoneNumber: call.phoneNumber, message: call.ticketMessage })
    .catch((error: unknown) => ({ status: 'failed' as const, providerRef: null, failureReason: error instanceof Error ? error.message.slice(0, 200) : 'SMS provider error' }));
  const status = sent.status === 'failed' ? TICKET_SMS_STATUS.failed : TICKET_SMS_STATUS.sent;
  // The status and its event commit together, in one statement: a process killed in between would
  // otherwise leave a ticket 'Sent' with no 'sms_sent' on its timeline (found by bench:ingest --crash).
  // One statement rather than a transaction of two: four round trips were a fifth of a payment callback's time.
  const detail = { status, provider: sms.name, providerRef: sent.providerRef ?? null, failureReason: sent.failureReason ?? null };
  await preparedRows(db as Db, 'ticket_sms_recorded', recordedStatement)({
    status,
    providerRef: sent.providerRef || null,
    id: call.id,
    kind: cause.kind,
    actor: cause.actor,
    actorUserId: cause.actorUserId ?? null,
    detail: JSON.stringify(detail),
  });
  return { status, providerRef: sent.providerRef ?? null };
}

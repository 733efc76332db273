/**
 * A ticket sale's statements as the API runs them on PostgreSQL, by the request that runs them,
 * written once for bench:scale's two floors: pgbench runs them one after another (PostgreSQL's
 * floor), and the floor server (bench/sale-floor.ts) runs each request's through the API's driver
 * (the server's floor). `{session}` is the sale's USSD session id, which is also its payment
 * reference here; `{phone}` its phone number; `{n}` a number of the sale's own.
 */

const hop = (text: string, reply: string) =>
  `insert into transaction_events (session_id, kind, actor, detail, dedupe_key) values ({session}, 'ussd_hop', 'customer', '{"input":"${text}","reply":"${reply}"}', 'hop' || chr(58) || {session} || ':${text}') on conflict (dedupe_key) do nothing`;

export const SALE_STATEMENTS = {
  /** The first hop: the menu, recorded on the session. */
  menu: [hop('', 'CON')],
  /** The second: the confirmation screen. */
  choice: [hop('1', 'CON')],
  /** The confirming hop: the call with its earlier hops attached and its payment requested, then the hop itself. */
  confirm: [
    `with created as (insert into transactions (service_code, phone_number, network, category_level, amount, session_id, payment_ref) values ('*217*900#', {phone}, 'MTN', 'ordinary', 1000, {session}, {session}) on conflict (session_id) do nothing returning id), attached as (update transaction_events set transaction_id = (select id from created) where session_id = {session} and transaction_id is null) insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key) select id, 'payment_requested', 'system', '{"amount":1000}', 'payment_requested:' || id from created`,
    hop('1*1', 'END'),
  ],
  /**
   * A payment callback's first statement: the call its reference names, with its ticket's text, and
   * the callback recorded on it when the call is settled already (a repeated callback ends here).
   */
  callback: [
    `with found as (select t.id, t.is_complete, (select n.message from contents n where n.category_id = t.category_id and n.category_level = t.category_level and n.active limit 1) as message from transactions t where t.payment_ref = {session} limit 1), recorded as (insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key) select id, 'payment_callback', 'provider' || chr(58) || 'external', '{"status":"SUCCESSFUL"}', 'callback' || chr(58) || {session} || chr(58) || {n} from found where is_complete on conflict (dedupe_key) do nothing) select id, is_complete from found`,
  ],
  /** The first callback of a pending call: settling it, with the callback and the settlement recorded. */
  settle: [
    `with settled as (update transactions set is_complete = true, message_statuses = 'Sending', ticket_message = 'Ticket', callback_time = now() where payment_ref = {session} and not is_complete and not is_deleted returning id) insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key) select id, kind, 'provider' || chr(58) || 'external', '{"status":"SUCCESSFUL"}', key from settled cross join (values ('payment_callback', 'callback' || chr(58) || {session}), ('payment_settled', 'settled' || chr(58) || {session})) as e(kind, key) returning transaction_id`,
  ],
  /** After a callback settled the call: the ticket SMS recorded as sent. */
  ticket: [
    `with updated as (update transactions set message_statuses = 'Sent', ticket_sms_ref = 'sms-' || {n} where payment_ref = {session} returning id) insert into transaction_events (transaction_id, kind, actor, detail) select id, 'sms_sent', 'system', '{"status":"Sent"}' from updated`,
  ],
};

/** Every statement of one sale, in the order its requests run them (a first callback, then one repeated). */
export const SALE_SCRIPT = [...SALE_STATEMENTS.menu, ...SALE_STATEMENTS.choice, ...SALE_STATEMENTS.confirm, ...SALE_STATEMENTS.callback, ...SALE_STATEMENTS.settle, ...SALE_STATEMENTS.ticket, ...SALE_STATEMENTS.callback];

export type SaleValue = 'session' | 'phone' | 'n';

/** Where a statement takes one of its values. */
const VALUE = /\{(session|phone|n)\}/g;

/** A statement with its values written in as SQL expressions (pgbench's variables). */
export function withExpressions(statement: string, expressions: Record<SaleValue, string>): string {
  return statement.replace(VALUE, (_, name: SaleValue) => expressions[name]);
}

/** A statement with its values as numbered parameters ($1 …, each value once, as text), and the values' names in order. */
export function withParameters(statement: string): { text: string; names: SaleValue[] } {
  const names: SaleValue[] = [];
  const text = statement.replace(VALUE, (_, name: SaleValue) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}::text`;
  });
  return { text, names };
}

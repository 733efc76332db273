import * as yup from 'yup';
import { isDay } from '../calendar-day';
import { isMonth } from '../day-range';
import { INCIDENT_STATES } from '../incidents';
import { BULK_RESOLVE_MAX, RESOLVE_NOTE_MAX, RESOLVE_REASONS } from '../resolution';
import { INVALID_PHONE_MESSAGE, isCustomerNumber, SEARCH_PHONE_PATTERN } from '../phone';
import type { TransactionStatus } from '../transaction-status';
import { UUID_PATTERN } from '../uuid';
import { flag, INVALID_VALUE, text, textOnly } from './text';

export const TRANSACTION_STATUSES: readonly TransactionStatus[] = ['processed', 'failed', 'pending'];

/** A calendar day `YYYY-MM-DD` (DESIGN §3). */
const day = text(10, { tooLong: 'Invalid date' })
  .trim()
  .optional()
  .test('day', 'Invalid date', (value) => value === undefined || value === '' || isDay(value));

const serviceCodeName = text(50, { tooLong: 'Invalid service code' }).trim().optional();

/** Filters of the transactions, failed and export calls and the dashboard summary. */
export const transactionFilterSchema = yup.object({
  name: serviceCodeName,
  date: day,
  /** A range instead of a day, both ends included (src/domain/day-range.ts checks the pair). */
  dateFrom: day,
  dateTo: day,
  status: text(20)
    .optional()
    .oneOf([...TRANSACTION_STATUSES, undefined], 'Invalid status'),
});
export type TransactionFilterInput = yup.InferType<typeof transactionFilterSchema>;

/** The longest window of instants a list takes: a month, as the day ranges. */
export const CALL_WINDOW_MAX_DAYS = 31;
const INSTANT_MESSAGE = 'Must be an instant, ISO 8601 with its offset (2026-11-26T10:20:00Z)';
/** An instant with its offset, between 2000 and 2100. */
export const isInstant = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && time >= Date.UTC(2000, 0, 1) && time < Date.UTC(2100, 0, 1);
};
const instant = text(40, { tooLong: INSTANT_MESSAGE })
  .trim()
  .optional()
  .test('instant', INSTANT_MESSAGE, (value) => value === undefined || value === '' || isInstant(value));

/**
 * The calls created after `since` and up to `until` (either may be left out): the calls an
 * incident counted, linked from its card. At most CALL_WINDOW_MAX_DAYS long, in order.
 */
export const callWindowSchema = yup.object({
  since: instant,
  until: instant.test('after-since', 'Must be after since', function check(value) {
    const { since } = this.parent as { since?: string };
    return !value || !since || !isInstant(since) || !isInstant(value) || Date.parse(value) > Date.parse(since);
  }).test('at-most', `At most ${CALL_WINDOW_MAX_DAYS} days after since`, function check(value) {
    const { since } = this.parent as { since?: string };
    return !value || !since || !isInstant(since) || !isInstant(value) || Date.parse(value) - Date.parse(since) <= CALL_WINDOW_MAX_DAYS * 86_400_000;
  }),
});

/** A phone number as a person types it: an optional +, digits, spaces or dashes. */
export const phoneNumberField = () =>
  text(30, { tooLong: INVALID_PHONE_MESSAGE })
    .trim()
    .required('Please provide the phone number')
    .matches(SEARCH_PHONE_PATTERN, INVALID_PHONE_MESSAGE);

export const transactionSearchSchema = yup.object({
  phoneNumber: phoneNumberField(),
  date: day,
  dateFrom: day,
  dateTo: day,
});

/** `GET /v1/customers/{phoneNumber}`: the number in the path. */
export const customerParamsSchema = yup.object({
  phoneNumber: phoneNumberField().test('digits', INVALID_PHONE_MESSAGE, (value) => value === undefined || isCustomerNumber(value)),
});

/** The top bar's search: a phone number, a payment reference or a call id. */
export const lookupSchema = yup.object({
  q: text(100, { tooLong: 'Invalid search' }).trim().required('Please type a phone number, a payment reference or a call id'),
});

/** `GET /v1/reports/monthly?month=YYYY-MM[&name=code]`. */
export const monthlyReportSchema = yup.object({
  month: text(7, { tooLong: 'Invalid month' })
    .trim()
    .required('Please choose a month')
    .test('month', 'Invalid month', (value) => value === undefined || isMonth(value)),
  name: serviceCodeName,
});


/** Why a call was resolved: both optional, so SPEC's `{ isResolved: true }` stays a whole body. */
const resolution = {
  reason: text(30, { tooLong: 'Invalid reason' })
    .transform(textOnly)
    .optional()
    .oneOf([...RESOLVE_REASONS, undefined], 'Invalid reason'),
  note: text(RESOLVE_NOTE_MAX).trim().transform(textOnly).optional(),
};

export const resolveTransactionSchema = yup.object({
  isResolved: flag().required('isResolved must be true').oneOf([true], 'isResolved must be true'),
  ...resolution,
});

/** The resolve dialog: the body's reason, which a person must choose, and note. */
export const resolveDialogSchema = yup.object({
  // None chosen yet ('') is the missing reason, not an invalid one.
  reason: resolution.reason.transform((value: unknown) => (value === '' ? undefined : value)).required('Please choose a reason'),
  note: resolution.note,
});
export type ResolveDialogInput = yup.InferType<typeof resolveDialogSchema>;

/** Resolve selected: up to BULK_RESOLVE_MAX failed calls at once, with one reason and note for all. */
export const bulkResolveSchema = yup.object({
  ids: yup
    .array()
    .typeError('ids must be a list of transaction ids')
    .of(text(36).required(INVALID_VALUE).matches(UUID_PATTERN, 'Invalid transaction id'))
    .required('Please select the transactions')
    .min(1, 'Please select the transactions')
    .max(BULK_RESOLVE_MAX, `At most ${BULK_RESOLVE_MAX} transactions at once`),
  ...resolution,
});
export type BulkResolveInput = yup.InferType<typeof bulkResolveSchema>;

/** `GET /v1/incidents?state=`: open or closed ones, or both when left out. */
export const incidentListSchema = yup.object({
  state: text(10)
    .optional()
    .oneOf([...INCIDENT_STATES, undefined], 'Invalid state'),
});

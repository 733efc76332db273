import * as yup from 'yup';
import { isDay } from '../calendar-day';
import { INVALID_PHONE_MESSAGE, SEARCH_PHONE_PATTERN } from '../phone';
import type { TransactionStatus } from '../transaction-status';
import { flag, text } from './text';

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
  status: text(20)
    .optional()
    .oneOf([...TRANSACTION_STATUSES, undefined], 'Invalid status'),
});
export type TransactionFilterInput = yup.InferType<typeof transactionFilterSchema>;

export const transactionSearchSchema = yup.object({
  phoneNumber: text(30, { tooLong: INVALID_PHONE_MESSAGE })
    .trim()
    .required('Please provide the phone number')
    .matches(SEARCH_PHONE_PATTERN, INVALID_PHONE_MESSAGE),
});

export const resolveTransactionSchema = yup.object({
  isResolved: flag().required('isResolved must be true').oneOf([true], 'isResolved must be true'),
});

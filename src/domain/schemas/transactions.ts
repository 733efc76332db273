import * as yup from 'yup';
import { isDay } from '../calendar-day';
import type { TransactionStatus } from '../transaction-status';

export const TRANSACTION_STATUSES: readonly TransactionStatus[] = ['processed', 'failed', 'pending'];

/** A calendar day `YYYY-MM-DD` (DESIGN §3). */
const day = yup
  .string()
  .trim()
  .optional()
  .test('day', 'Invalid date', (value) => value === undefined || value === '' || isDay(value));

const serviceCodeName = yup.string().trim().max(50, 'Invalid service code').optional();

/** Filters of the transactions, failed and export calls and the dashboard summary. */
export const transactionFilterSchema = yup.object({
  name: serviceCodeName,
  date: day,
  status: yup
    .string()
    .optional()
    .oneOf([...TRANSACTION_STATUSES, undefined], 'Invalid status'),
});
export type TransactionFilterInput = yup.InferType<typeof transactionFilterSchema>;

export const transactionSearchSchema = yup.object({
  phoneNumber: yup
    .string()
    .trim()
    .required('Please provide the phone number')
    .matches(/^\+?[\d\s-]{6,20}$/, 'Invalid phone number'),
});

export const resolveTransactionSchema = yup.object({
  isResolved: yup.boolean().required('isResolved must be true').oneOf([true], 'isResolved must be true'),
});

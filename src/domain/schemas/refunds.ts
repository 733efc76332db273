import * as yup from 'yup';
import { REFUND_NOTE_MAX, REFUND_REASONS, REFUND_STATES } from '../refunds';
import { INVALID_VALUE, text, textOnly, trimmedTextOnly } from './text';

/** More than any call costs; beyond it is a typing slip (and past an integer column). */
const MAX_REFUND = 100_000_000;


/** Empty inputs become undefined (the amount then defaults to what is left of the call's). */
const emptyToUndefined = (value: unknown, original: unknown) => (original === '' || original === null ? undefined : value);

/** `POST /v1/transactions/{id}/refunds` and the Refund dialog. */
export const refundRequestSchema = yup.object({
  amount: yup
    .number()
    .transform(emptyToUndefined)
    .typeError('The amount must be a whole number of shillings')
    .integer('The amount must be a whole number of shillings')
    .min(1, 'The amount must be more than 0')
    .max(MAX_REFUND, 'The amount is more than any call costs')
    .optional(),
  reason: text(30, { tooLong: 'Invalid reason' })
    .transform(textOnly)
    // None chosen yet ('' or the select's '0') is the missing reason, not an invalid one.
    .transform((value: unknown) => (value === '' || value === '0' ? undefined : value))
    .required('Please choose a reason')
    .oneOf([...REFUND_REASONS], 'Invalid reason'),
  note: text(REFUND_NOTE_MAX, { plainDirection: true }).trim().transform(textOnly).optional(),
});
export type RefundRequestInput = yup.InferType<typeof refundRequestSchema>;

/** `POST /v1/refunds/{id}/reject`: a manager says why. */
export const refundRejectSchema = yup.object({
  reason: text(REFUND_NOTE_MAX, { plainDirection: true }).transform(trimmedTextOnly).required('Please say why the refund is rejected'),
});

/** `GET /v1/refunds?state=`: one state, or every one when left out. */
export const refundListSchema = yup.object({
  state: text(20, { tooLong: INVALID_VALUE })
    .optional()
    .oneOf([...REFUND_STATES, undefined], 'Invalid state'),
});

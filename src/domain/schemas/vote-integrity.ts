import * as yup from 'yup';
import { INVALID_PHONE_MESSAGE, SEARCH_PHONE_PATTERN } from '../phone';
import { INVALID_VALUE, text, trimmedTextOnly } from './text';

/** Longest reason a reviewer may give for rejecting held votes. */
export const VOTE_REJECT_REASON_MAX = 500;

/** A round of a campaign, or `all` (or nothing) for every round, as the suspicious list takes it. */
export const suspiciousQuerySchema = yup.object({
  round: text(50, { tooLong: 'Unknown round' }).optional(),
});

/** The `flagged` filter of a ranking: 'true' ranks the flagged numbers only. */
export const rankingFilterSchema = yup.object({
  flagged: yup.boolean().typeError(INVALID_VALUE).optional(),
});

/** The phone number of a release or reject path, and the round it is limited to (every round when left out). */
export const heldVotesTargetSchema = yup.object({
  phoneNumber: yup.string().trim().required('Please provide the phone number').matches(SEARCH_PHONE_PATTERN, INVALID_PHONE_MESSAGE),
  round: text(50, { tooLong: 'Unknown round' }).optional(),
});

/** `POST /v1/campaigns/{key}/suspicious/{phoneNumber}/release`: optionally one round. */
export const voteReleaseSchema = yup.object({
  round: text(50, { tooLong: 'Unknown round' }).optional(),
});


/** `POST /v1/campaigns/{key}/suspicious/{phoneNumber}/reject`: why, and optionally one round. */
export const voteRejectSchema = yup.object({
  reason: text(VOTE_REJECT_REASON_MAX, { plainDirection: true }).transform(trimmedTextOnly).required('Please say why the votes are rejected'),
  round: text(50, { tooLong: 'Unknown round' }).optional(),
});

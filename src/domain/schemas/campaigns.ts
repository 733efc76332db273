import * as yup from 'yup';
import { INVALID_PHONE_MESSAGE, SEARCH_PHONE_PATTERN } from '../phone';
import { transactionFilterSchema } from './transactions';

/** A text field of a campaign call: at most 50 characters, no control characters (DESIGN §4). */
const campaignText = (message: string) =>
  yup
    .string()
    .trim()
    .max(50, message)
    // eslint-disable-next-line no-control-regex
    .matches(/^[^\u0000-\u001f\u007f]*$/, message)
    .optional();

/** The body of a campaign's transactions and failed lists: the campaign's service code and a day. */
export const campaignListSchema = transactionFilterSchema.pick(['name', 'date']);

/** The body of a ranking call (SPEC §7): the campaign's own service code. */
export const campaignRankingSchema = yup.object({
  serviceCode: campaignText('Invalid service code'),
});

/** A round of a campaign, or `all` (or nothing) for every round. */
export const campaignRoundSchema = yup.object({
  round: campaignText('Unknown round'),
});

/** The 'View more' call: one voter's votes, newest first. */
export const campaignVotesSchema = yup.object({
  phoneNumber: yup
    .string()
    .trim()
    .required('Please provide the phone number')
    .matches(SEARCH_PHONE_PATTERN, INVALID_PHONE_MESSAGE),
  round: campaignText('Unknown round'),
});

/** The team results chart's data (`GET /v1/campaigns/{key}/results`). */
export interface CampaignResults {
  round: string | null;
  totalVotes: number;
  distinctVoters: number;
  teams: { teamName: string; votes: number }[];
  games: { teamName: string; teamName2: string; votes: number }[];
}

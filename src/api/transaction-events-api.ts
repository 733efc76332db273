import type { ApiEnvelope, Transaction } from '../domain/entities';
import type { TransactionEvent } from '../domain/transaction-events';
import { baseApi } from './base-api';

/** What 'Resend ticket' answers: the server's words and the call as it is now. */
export interface TicketResend {
  message: string;
  transaction: Transaction;
}

export const transactionEventsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** A call's timeline, oldest first; tagged as the call, so whatever changes the call refreshes it. */
    getTransactionEvents: build.query<TransactionEvent[], string>({
      query: (id) => `/v1/transactions/${id}/events`,
      transformResponse: (response: ApiEnvelope<TransactionEvent[]>) => response.results,
      providesTags: (_result, _error, id) => [{ type: 'Transaction', id }],
    }),
    resendTicket: build.mutation<TicketResend, string>({
      query: (id) => ({ url: `/v1/transactions/${id}/resend-ticket`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<Transaction>) => ({ message: response.message, transaction: response.results }),
      // The row (in whichever list shows it) and its timeline change; a refused resend changes nothing.
      invalidatesTags: (_result, error, id) =>
        error ? [] : [{ type: 'Transaction', id }, { type: 'FailedTransaction', id }, { type: 'CampaignTransaction', id }],
    }),
  }),
});

export const { useGetTransactionEventsQuery, useResendTicketMutation } = transactionEventsApi;

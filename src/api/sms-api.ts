import type { CategoryLevel } from '../domain/category-levels';
import type { ApiEnvelope, SmsRecord } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import { baseApi, listTags } from './base-api';

export interface SendSmsRequest {
  categoryLevel: CategoryLevel;
  phoneNumber: string;
  message: string;
}

export const smsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSmsMessages: build.query<PagedList<SmsRecord>, { page: number }>({
      query: ({ page }) => ({ url: '/v1/sms', params: { page } }),
      transformResponse: (response: ApiEnvelope<PagedList<SmsRecord>>) => readPagedList(response.results),
      providesTags: listTags('Sms'),
    }),
    sendSms: build.mutation<SmsRecord, SendSmsRequest>({
      query: (body) => ({ url: '/v1/sms', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<SmsRecord>) => response.results,
      invalidatesTags: [{ type: 'Sms', id: 'LIST' }],
    }),
  }),
});

export const { useGetSmsMessagesQuery, useSendSmsMutation } = smsApi;

import type { ApiEnvelope } from '../domain/entities';
import type { Incident, IncidentState } from '../domain/incidents';
import { readPagedList, type PagedList } from '../domain/paged-list';
import { baseApi, listTags } from './base-api';

export interface IncidentsQuery {
  page: number;
  limit?: number;
  /** Open or closed ones; both (open first, then the newest) when left out. */
  state?: IncidentState;
}

/**
 * The live stream invalidates 'Incident' on `event: incident`; this poll is the fallback for when
 * the stream is down (a count a minute old is still worth showing).
 */
export const OPEN_INCIDENTS_POLL_MS = 60_000;

/** Incidents, in the caller's scope: a manager reads every one, an agent its codes'. */
export const incidentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getIncidents: build.query<PagedList<Incident>, IncidentsQuery>({
      query: ({ page, limit, state }) => ({ url: '/v1/incidents', params: { page, ...(limit ? { limit } : {}), ...(state ? { state } : {}) } }),
      transformResponse: (response: ApiEnvelope<PagedList<Incident>>) => readPagedList(response.results),
      providesTags: listTags('Incident'),
      // The open list's total is the count the top bar shows: the two never disagree on screen.
      async onQueryStarted({ page, state }, { dispatch, queryFulfilled }) {
        if (state !== 'open' || page !== 1) return;
        try {
          const { data } = await queryFulfilled;
          dispatch(incidentsApi.util.upsertQueryData('getOpenIncidentCount', undefined, data.total));
        } catch {
          // The list shows its own error; the count keeps what it had.
        }
      },
    }),
    getOpenIncidentCount: build.query<number, void>({
      query: () => '/v1/incidents/open-count',
      transformResponse: (response: ApiEnvelope<{ open: number }>) => response.results.open,
      providesTags: [{ type: 'Incident', id: 'OPEN_COUNT' }],
    }),
    acknowledgeIncident: build.mutation<{ message: string; incident: Incident }, { id: string; note: string }>({
      query: ({ id, note }) => ({ url: `/v1/incidents/${id}/acknowledge`, method: 'POST', body: note ? { note } : {} }),
      transformResponse: (response: ApiEnvelope<Incident>) => ({ message: response.message, incident: response.results }),
      // A 409 means someone else took it on: the list is read again to show who.
      invalidatesTags: [{ type: 'Incident', id: 'LIST' }],
    }),
  }),
});

export const { useGetIncidentsQuery, useGetOpenIncidentCountQuery, useAcknowledgeIncidentMutation } = incidentsApi;

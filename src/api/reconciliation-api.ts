import type { BaseQueryApi } from '@reduxjs/toolkit/query/react';
import type { ApiEnvelope } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { ReconciliationKind, ReconciliationRow, ReconciliationStatement } from '../domain/reconciliation';
import type { SessionState } from '../state/session-slice';
import { apiUrl } from './api-url';
import { baseApi, listTags, refreshSession } from './base-api';
import { csvFileOf, type CsvFile } from './csv-file';

export interface StatementQuery {
  id: string;
  kind?: ReconciliationKind;
  page: number;
  limit?: number;
}

/** A statement with one page of its rows. */
export interface StatementDetail extends ReconciliationStatement {
  rows: PagedList<ReconciliationRow>;
}

export interface RowAction {
  statementId: string;
  rowId: string;
}

/** What acting on a row answers: the server's words and the row as it is now. */
export interface RowActionResult {
  message: string;
  row: ReconciliationRow;
}

const toRowAction = (response: ApiEnvelope<ReconciliationRow>): RowActionResult => ({ message: response.message, row: response.results });

/** A row's statement and lists, and the call it settled or noted, in whichever list or timeline shows it. */
const rowActionTags = (result: RowActionResult | undefined, error: unknown, { statementId }: RowAction) => {
  if (error) return [];
  const callId = result?.row.transaction?._id;
  const call = callId ? ([{ type: 'Transaction', id: callId }, { type: 'FailedTransaction', id: callId }, { type: 'CampaignTransaction', id: callId }] as const) : [];
  return [{ type: 'ReconciliationStatement' as const, id: statementId }, { type: 'ReconciliationStatement' as const, id: 'LIST' }, ...call];
};

export const reconciliationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getStatements: build.query<PagedList<ReconciliationStatement>, { page: number; limit?: number; voided?: boolean }>({
      query: ({ page, limit, voided }) => ({ url: '/v1/reconciliation/statements', params: { page, ...(limit ? { limit } : {}), ...(voided ? { voided: true } : {}) } }),
      transformResponse: (response: ApiEnvelope<PagedList<ReconciliationStatement>>) => readPagedList(response.results),
      providesTags: listTags('ReconciliationStatement'),
    }),
    getStatement: build.query<StatementDetail, StatementQuery>({
      query: ({ id, kind, page, limit }) => ({ url: `/v1/reconciliation/statements/${id}`, params: { page, ...(limit ? { limit } : {}), ...(kind ? { kind } : {}) } }),
      transformResponse: (response: ApiEnvelope<StatementDetail>) => ({ ...response.results, rows: readPagedList(response.results.rows) }),
      // Its rows show their calls and refunds: a refund requested from a row (or anywhere) refreshes them.
      providesTags: (result, _error, { id }) => [
        { type: 'ReconciliationStatement', id },
        ...(result?.rows.docs ?? []).flatMap((row) => (row.transaction ? [{ type: 'Transaction' as const, id: row.transaction._id }] : [])),
      ],
    }),
    issueTicket: build.mutation<RowActionResult, RowAction>({
      query: ({ statementId, rowId }) => ({ url: `/v1/reconciliation/statements/${statementId}/rows/${rowId}/issue-ticket`, method: 'POST' }),
      transformResponse: toRowAction,
      invalidatesTags: rowActionTags,
    }),
    markRowReviewed: build.mutation<RowActionResult, RowAction & { note: string }>({
      query: ({ statementId, rowId, note }) => ({ url: `/v1/reconciliation/statements/${statementId}/rows/${rowId}/review`, method: 'POST', body: { note } }),
      transformResponse: toRowAction,
      invalidatesTags: rowActionTags,
    }),
    reviewRows: build.mutation<{ message: string; rows: ReconciliationRow[] }, { statementId: string; rowIds: string[]; note: string }>({
      query: ({ statementId, rowIds, note }) => ({ url: `/v1/reconciliation/statements/${statementId}/rows/review`, method: 'POST', body: { rowIds, note } }),
      transformResponse: (response: ApiEnvelope<ReconciliationRow[]>) => ({ message: response.message, rows: response.results }),
      invalidatesTags: (result, error, { statementId }) => {
        if (error) return [];
        const calls = (result?.rows ?? []).flatMap((row) => (row.transaction ? [{ type: 'Transaction' as const, id: row.transaction._id }, { type: 'FailedTransaction' as const, id: row.transaction._id }] : []));
        return [{ type: 'ReconciliationStatement' as const, id: statementId }, { type: 'ReconciliationStatement' as const, id: 'LIST' }, ...calls];
      },
    }),
    voidStatement: build.mutation<ReconciliationStatement, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/v1/reconciliation/statements/${id}/void`, method: 'POST', body: { reason } }),
      transformResponse: (response: ApiEnvelope<ReconciliationStatement>) => response.results,
      invalidatesTags: (_result, error, { id }) => (error ? [] : [{ type: 'ReconciliationStatement', id }, { type: 'ReconciliationStatement', id: 'LIST' }]),
    }),
    exportStatementCsv: build.mutation<CsvFile, { id: string; kind?: ReconciliationKind }>({
      query: ({ id, kind }) => ({ url: `/v1/reconciliation/statements/${id}/export`, params: kind ? { kind } : {}, responseHandler: 'text' }),
      transformResponse: (csv: string, meta) => csvFileOf(csv, meta, 'reconciliation.csv'),
    }),
  }),
});

export const { useGetStatementsQuery, useGetStatementQuery, useIssueTicketMutation, useMarkRowReviewedMutation, useReviewRowsMutation, useVoidStatementMutation, useExportStatementCsvMutation } = reconciliationApi;

/** What an upload answers: the statement, and whether this file made it or it was there already. */
export interface StatementUpload {
  id: string;
  message: string;
  created: boolean;
}

type StoreApi = Pick<BaseQueryApi, 'dispatch' | 'getState'>;

/** The days a statement covers, declared at upload (`YYYY-MM-DD`, both counted), when its lines span more than a month. */
export interface DeclaredPeriod {
  from: string;
  to: string;
}

/** One POST of the file; resolves with the status (0 when no answer came) and the parsed body. */
function sendFile(file: Blob, fileName: string, period: DeclaredPeriod | undefined, token: string | null, onProgress: (fraction: number) => void): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    const query = new URLSearchParams({ fileName, ...(period ? { periodFrom: period.from, periodTo: period.to } : {}) });
    request.open('POST', apiUrl(`/v1/reconciliation/statements?${query}`));
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Content-Type', 'text/csv');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      resolve({ status: request.status, body });
    };
    request.onerror = () => resolve({ status: 0, body: undefined });
    request.send(file);
  });
}

/**
 * Uploads a provider statement (DESIGN §7) with XMLHttpRequest, whose upload progress fetch does
 * not report, so a large file shows how far it has gone. As every call: a 401 refreshes the session
 * once and sends again once. A refusal rejects as RTK Query's errors do (`{ status, data }`), so
 * readApiError and the submit hook read its field errors.
 */
export async function uploadStatement(api: StoreApi, file: Blob, fileName: string, onProgress: (fraction: number) => void, period?: DeclaredPeriod): Promise<StatementUpload> {
  const token = () => (api.getState() as { session: SessionState }).session.accessToken;
  let answer = await sendFile(file, fileName, period, token(), onProgress);
  if (answer.status === 401 && token()) {
    const refreshed = await refreshSession(api);
    if (refreshed.ok) answer = await sendFile(file, fileName, period, token(), onProgress);
  }
  if (answer.status < 200 || answer.status >= 300) throw { status: answer.status || 'FETCH_ERROR', data: answer.body };
  const envelope = answer.body as ApiEnvelope<{ _id: string }>;
  api.dispatch(reconciliationApi.util.invalidateTags([{ type: 'ReconciliationStatement', id: 'LIST' }]));
  return { id: envelope.results._id, message: envelope.message, created: answer.status === 201 };
}

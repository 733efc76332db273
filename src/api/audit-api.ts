import type { AuditEntityType, AuditEntry, AuditVerification } from '../domain/audit';
import type { ApiEnvelope } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import { baseApi } from './base-api';
import { csvFileOf, type CsvFile } from './csv-file';

/** The filters of `GET /v1/audit` and its export; empty ones are left out. */
export interface AuditFilter {
  actor?: string;
  action?: string;
  entityType?: AuditEntityType | '';
  entityId?: string;
  serviceCode?: string;
  /** A day YYYY-MM-DD in the service's zone, or an ISO 8601 instant. */
  from?: string;
  to?: string;
}

export interface AuditQuery extends AuditFilter {
  page: number;
  limit?: number;
}

const compact = (filter: AuditFilter) => Object.fromEntries(Object.entries(filter).filter(([, value]) => typeof value === 'string' && value !== ''));

/**
 * The audit trail (admins and super-users). Every staff write adds entries, so the lists are read
 * afresh whenever a screen or a History tab shows them rather than kept by tags.
 */
export const auditApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAuditEntries: build.query<PagedList<AuditEntry>, AuditQuery>({
      query: ({ page, limit = 50, ...filter }) => ({ url: '/v1/audit', params: { page, limit, ...compact(filter) } }),
      transformResponse: (response: ApiEnvelope<PagedList<AuditEntry>>) => readPagedList(response.results),
    }),
    // A mutation: each check walks the chain as it is now.
    verifyAuditTrail: build.mutation<AuditVerification, void>({
      query: () => '/v1/audit/verify',
      transformResponse: (response: ApiEnvelope<AuditVerification>) => response.results,
    }),
    // A mutation, not a query: a download is asked for each time and never cached (and is itself audited).
    exportAuditCsv: build.mutation<CsvFile, AuditFilter>({
      query: (filter) => ({ url: '/v1/audit/export', params: compact(filter), responseHandler: 'text' }),
      transformResponse: (csv: string, meta) => csvFileOf(csv, meta, 'audit-trail.csv'),
    }),
  }),
});

export const { useGetAuditEntriesQuery, useVerifyAuditTrailMutation, useExportAuditCsvMutation } = auditApi;

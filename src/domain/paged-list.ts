/** The paged list the API answers (DESIGN §3); ranking lists also carry the legacy aliases. */
export interface PagedList<T> {
  docs: T[];
  page: number;
  limit: number;
  total: number;
  pages: number;
  previous: number | null;
  next: number | null;
  totalDocs?: number;
  prevPage?: number | null;
  nextPage?: number | null;
}

type LegacyPage<T> = Partial<PagedList<T>> & { docs?: T[] };

/** Reads either paged form (docs/total/previous/next or docs/totalDocs/prevPage/nextPage). */
export function readPagedList<T>(results: LegacyPage<T> | T[] | null | undefined): PagedList<T> {
  if (!results) return emptyPage<T>();
  if (Array.isArray(results)) {
    return { docs: results, page: 1, limit: results.length, total: results.length, pages: 1, previous: null, next: null };
  }
  const docs = results.docs ?? [];
  const page = results.page ?? 1;
  const limit = results.limit ?? (docs.length || 10);
  const total = results.total ?? results.totalDocs ?? docs.length;
  const pages = results.pages ?? Math.max(1, Math.ceil(total / Math.max(1, limit)));
  return {
    docs,
    page,
    limit,
    total,
    pages,
    previous: results.previous ?? results.prevPage ?? (page > 1 ? page - 1 : null),
    next: results.next ?? results.nextPage ?? (page < pages ? page + 1 : null),
  };
}

export function emptyPage<T>(): PagedList<T> {
  return { docs: [], page: 1, limit: 10, total: 0, pages: 1, previous: null, next: null };
}

/** Builds the page envelope the server answers. */
export function toPagedList<T>(docs: T[], page: number, limit: number, total: number): PagedList<T> {
  const pages = Math.max(1, Math.ceil(total / limit));
  const previous = page > 1 ? page - 1 : null;
  const next = page < pages ? page + 1 : null;
  return { docs, page, limit, total, pages, previous, next, totalDocs: total, prevPage: previous, nextPage: next };
}

/** The grid counts pages from 0, the API from 1; the pagination's buttons step the API's page (stepPage). */
export function apiPageToGridPage(apiPage: number): number {
  return Math.max(0, apiPage - 1);
}

/** Row number shown in the '#' column: offset by the page (SPEC §2 ranking rule). */
export function rowNumber(index: number, page: number, limit: number): number {
  return page * limit - limit + index + 1;
}

/** Parses page and limit query values the way every list route does. */
export function parsePaging(query: { page?: unknown; limit?: unknown }, defaultLimit = 10, maxLimit = 100) {
  const page = Math.max(1, Number.parseInt(String(query.page ?? '1'), 10) || 1);
  const rawLimit = Number.parseInt(String(query.limit ?? defaultLimit), 10) || defaultLimit;
  const limit = Math.min(Math.max(1, rawLimit), maxLimit);
  return { page, limit, offset: (page - 1) * limit };
}

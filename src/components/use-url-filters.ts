import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readView, writeView, type ViewFilters } from '../domain/list-view';

/**
 * Changes of the same filters closer together than this are one edit (typing a date, a burst of
 * picks): they replace the history entry rather than push one, so Back is not noisy.
 */
export const EDIT_BURST_MS = 1000;

export interface UrlFiltersOptions<F> {
  /** Each filter's default and what the URL may say of it (src/domain/list-view.ts). */
  filters: ViewFilters<F>;
  /** Query keys under `${prefix}.` when one screen shows two lists. */
  prefix?: string;
}

export interface ViewChange {
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
}

/**
 * A screen's filters and page kept in the URL query (issue 23), the one place they live: read at
 * every render (the URL wins over the defaults), and each change pushes a history entry, so
 * reload, a copied link, Back and Forward all give the same view. usePagedGrid is built on it;
 * a screen without a paged list (the dashboard) uses it alone.
 */
export function useUrlFilters<F extends object>({ filters: rules, prefix = '' }: UrlFiltersOptions<F>) {
  const [query, setQuery] = useSearchParams();
  const queryText = query.toString();
  const view = readView(query, rules, prefix);
  // The setters keep one identity across renders; they read the latest render's rules and query.
  const latest = useRef({ rules, queryText });
  // Queries written and not yet rendered, oldest first: the router renders a navigation in a
  // transition, so a second change before it shows (a code chosen, then a day typed at once)
  // must build on the first, or it would write the first one's filters back to what they were.
  const inFlight = useRef<string[]>([]);
  useEffect(() => {
    latest.current = { rules, queryText };
  });
  useEffect(() => {
    // One of ours is shown: it and those before it are done. Anything else (Back) ends them all.
    const shown = inFlight.current.indexOf(queryText);
    inFlight.current = shown === -1 ? [] : inFlight.current.slice(shown + 1);
  }, [queryText]);
  const lastEdit = useRef<{ keys: string; at: number } | null>(null);

  const change = useCallback(
    (next: { filters?: Partial<F>; page: number }, { replace }: ViewChange = {}) => {
      const keys = next.filters ? Object.keys(next.filters).sort().join(',') : '';
      const now = Date.now();
      const burst = keys !== '' && lastEdit.current?.keys === keys && now - lastEdit.current.at < EDIT_BURST_MS;
      lastEdit.current = keys ? { keys, at: now } : null;
      const { rules: current, queryText: shownText } = latest.current;
      const base = new URLSearchParams(inFlight.current.at(-1) ?? shownText);
      const shown = readView(base, current, prefix);
      const written = writeView(base, current, { filters: { ...shown.filters, ...next.filters }, page: next.page }, prefix);
      if (written.toString() === base.toString()) return;
      inFlight.current.push(written.toString());
      setQuery(written, { replace: replace ?? burst });
    },
    [setQuery, prefix],
  );

  /** Any filter change goes back to page 1. */
  const setFilters = useCallback((next: Partial<F>, options?: ViewChange) => change({ filters: next, page: 1 }, options), [change]);
  const setPage = useCallback((page: number, options?: ViewChange) => change({ page }, options), [change]);
  return { filters: view.filters, page: view.page, setFilters, setPage };
}

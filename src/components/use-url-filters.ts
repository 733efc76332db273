import { useCallback, useEffect, useRef, useState } from 'react';
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
 * A screen's filters and page kept in the URL query, the one place they live: read at
 * every render (the URL wins over the defaults), and each change pushes a history entry, so
 * reload, a copied link, Back and Forward all give the same view. usePagedGrid is built on it;
 * a screen without a paged list (the dashboard) uses it alone.
 */
export function useUrlFilters<F extends object>({ filters: rules, prefix = '' }: UrlFiltersOptions<F>) {
  const [query, setQuery] = useSearchParams();
  const queryText = query.toString();
  // Queries written that the router has not shown yet: it shows a navigation in a transition,
  // later than the event that asked for it. Until it does, the screen shows the last one written
  // (so the list asks for its rows in the same event, as with state), and a second change (a code
  // chosen, then a day typed) builds on it rather than writing the first one's filters back.
  const [writes, setWrites] = useState<{ from: string; chain: string[] } | null>(null);
  const newest = writes?.chain.at(-1);
  // Settled: the router shows the newest write, or went elsewhere (Back) than our writes.
  const settled = !writes || queryText === newest || (queryText !== writes.from && !writes.chain.includes(queryText));
  if (writes && settled) setWrites(null);
  const shownText = settled || newest === undefined ? queryText : newest;
  const view = readView(new URLSearchParams(shownText), rules, prefix);
  // The setters keep one identity across renders; they read the latest render's rules and view.
  const latest = useRef({ rules, queryText, writes: settled ? null : writes });
  useEffect(() => {
    latest.current = { rules, queryText, writes: settled ? null : writes };
  });
  const lastEdit = useRef<{ keys: string; at: number } | null>(null);

  const change = useCallback(
    (next: { filters?: Partial<F>; page: number }, { replace }: ViewChange = {}) => {
      const keys = next.filters ? Object.keys(next.filters).sort().join(',') : '';
      const now = Date.now();
      const burst = keys !== '' && lastEdit.current?.keys === keys && now - lastEdit.current.at < EDIT_BURST_MS;
      lastEdit.current = keys ? { keys, at: now } : null;
      const { rules: current, queryText: routerText, writes: pending } = latest.current;
      const base = new URLSearchParams(pending?.chain.at(-1) ?? routerText);
      const shown = readView(base, current, prefix);
      const written = writeView(base, current, { filters: { ...shown.filters, ...next.filters }, page: next.page }, prefix);
      if (written.toString() === base.toString()) return;
      const nextWrites = { from: pending?.from ?? routerText, chain: [...(pending?.chain ?? []), written.toString()] };
      latest.current = { ...latest.current, writes: nextWrites };
      setWrites(nextWrites);
      setQuery(written, { replace: replace ?? burst });
    },
    [setQuery, setWrites, prefix],
  );

  /** Any filter change goes back to page 1. */
  const setFilters = useCallback((next: Partial<F>, options?: ViewChange) => change({ filters: next, page: 1 }, options), [change]);
  const setPage = useCallback((page: number, options?: ViewChange) => change({ page }, options), [change]);
  return { filters: view.filters, page: view.page, setFilters, setPage };
}

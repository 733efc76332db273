/** Pages of a server-paged list; the API counts from 1 (DESIGN §3). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, limit)));
}

/** SPEC §4: pagination moves one page at a time, never below 1 or above the last page. */
export function stepPage(page: number, delta: number, pages: number): number {
  return Math.min(Math.max(1, page + delta), Math.max(1, pages));
}

/** SPEC §9 pagination footer. */
export function showingText(shown: number, total: number): string {
  return `Showing ${shown} out of ${total} entries`;
}

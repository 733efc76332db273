/**
 * Service codes in natural order: `*217*2#` before `*217*10#`, numbers compared as numbers part by
 * part (the switcher lists `*217*1#`, `*217*2#`, … `*217*25#`).
 */
export function compareServiceCodes(a: string, b: string): number {
  const parts = (code: string) => code.replace(/#$/, '').split('*').filter(Boolean);
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    if (left[i] === undefined) return -1;
    if (right[i] === undefined) return 1;
    const [x, y] = [Number(left[i]), Number(right[i])];
    const order = Number.isFinite(x) && Number.isFinite(y) ? x - y : left[i].localeCompare(right[i]);
    if (order !== 0) return order;
  }
  return a.localeCompare(b);
}

/** A service code with today's figures, as `GET /v1/short-code/today` answers it (the switcher). */
export interface ServiceCodeToday {
  _id: string;
  name: string;
  category: { _id: string; name: string } | null;
  /** Today's calls, in the service's time zone. */
  calls: number;
  failed: number;
  /** failed / calls, from 0 to 1 (0 without calls). */
  failedShare: number;
}

/** How the choice of every code in the caller's scope reads (the switcher, the top bar). */
export const ALL_SERVICE_CODES = 'All service codes';

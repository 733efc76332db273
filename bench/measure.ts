/** The p-th percentile of the values (NaN for none). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the n-th of many workers' jobs is due, so together they keep to `perSecond` from
 * `startedAt` (0: no wait, as fast as they go). Answers false when that falls at or after `until`.
 */
export async function waitTurn(n: number, perSecond: number, startedAt: number, until: number): Promise<boolean> {
  if (perSecond <= 0) return true;
  const due = startedAt + (n / perSecond) * 1000;
  if (due > Date.now()) await sleep(due - Date.now());
  return Date.now() < until;
}

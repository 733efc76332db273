import fs from 'node:fs';

/**
 * CPU time (user and system) of a process from /proc/<pid>/stat, in ms (clock ticks of 10 ms): its
 * own, or with `endedChildren` that of its children that ended and were waited for (cutime, cstime).
 * Throws where the process is gone (ENOENT) or /proc cannot be read.
 */
export function procCpuMs(pid: number | 'self', endedChildren = false): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields 14 and 15 (utime, stime), or 16 and 17 (cutime, cstime), after the command's parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const first = endedChildren ? 13 : 11;
  return (Number(fields[first]) + Number(fields[first + 1])) * 10;
}

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

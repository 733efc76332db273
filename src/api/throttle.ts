/**
 * Runs `work` at most once per `ms`: at once when it has been quiet, else once at the end of the
 * window for everything asked meanwhile (a burst of live events is one refetch, never none).
 */
export function throttled(work: () => void, ms: number): { (): void; cancel: () => void } {
  let lastRunAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    lastRunAt = Date.now();
    work();
  };
  const ask = () => {
    if (timer) return;
    const wait = lastRunAt + ms - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  ask.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return ask;
}

/** Runs `work` once, `ms` after the last time it was asked for (a burst is one run, after it ends). */
export function debounced(work: () => void, ms: number): { (): void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      work();
    }, ms);
  };
  ask.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return ask;
}

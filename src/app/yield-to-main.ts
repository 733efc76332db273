/**
 * Ends the current task and resumes in a new one, so the browser can paint and answer input in
 * between. Booting the app in a few such steps keeps each task short on a slow phone, where one
 * long task blocks the page (Lighthouse's total blocking time).
 */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

import { useCallback } from 'react';
import { useToastSlot } from '../use-load-toast';

/** A resolve mutation's trigger, e.g. the first item of `useResolveTransactionMutation()`. */
export type ResolveTrigger = (id: string) => { unwrap(): Promise<unknown> };

/**
 * SPEC §4 and §8: tells the server through the given mutation (the regular or a campaign
 * endpoint), which shows the row resolved at once and takes it back if refused
 * (api/resolve-in-cache.ts); 'Resolved' or 'Unexpected error', a run of clicks replacing its toast.
 */
export function useResolve(resolve: ResolveTrigger): (id: string) => Promise<void> {
  const toastSlot = useToastSlot();
  return useCallback(
    async (id: string) => {
      try {
        await resolve(id).unwrap();
        toastSlot('Resolved', 'success');
      } catch {
        toastSlot('Unexpected error', 'error');
      }
    },
    [resolve, toastSlot],
  );
}

import { useCallback } from 'react';
import type { ResolveRequest } from '../../api/transactions-api';
import { useToastSlot } from '../use-load-toast';

/** A resolve mutation's trigger, e.g. the first item of `useResolveTransactionMutation()`. */
export type ResolveTrigger = (request: ResolveRequest) => { unwrap(): Promise<unknown> };

/**
 * SPEC §4 and §8: tells the server through the given mutation (the regular or a campaign
 * endpoint), which shows the row resolved at once and takes it back if refused
 * (api/resolve-in-cache.ts); 'Resolved' or 'Unexpected error', a run of clicks replacing its toast.
 * The row's button resolves at once (SPEC §4); the keyboard queue's dialog adds a reason and note.
 * Answers whether the server resolved it.
 */
export function useResolve(resolve: ResolveTrigger): (request: ResolveRequest) => Promise<boolean> {
  const toastSlot = useToastSlot();
  return useCallback(
    async (request: ResolveRequest) => {
      try {
        await resolve(request).unwrap();
        toastSlot('Resolved', 'success');
        return true;
      } catch {
        toastSlot('Unexpected error', 'error');
        return false;
      }
    },
    [resolve, toastSlot],
  );
}

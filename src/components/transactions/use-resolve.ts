import { useCallback } from 'react';
import type { ResolveRequest } from '../../api/transactions-api';
import { useSubmit } from '../use-submit';

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
  const submit = useSubmit({ replacePrevious: true });
  return useCallback(
    (request: ResolveRequest) => submit(() => resolve(request).unwrap(), { success: 'Resolved', failure: 'Unexpected error' }),
    [resolve, submit],
  );
}

import { useCallback } from 'react';
import { useSnackbar } from 'notistack';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { selectResolvedIds, transactionResolved } from '../../state/resolved-slice';

/** A resolve mutation's trigger, e.g. the first item of `useResolveTransactionMutation()`. */
export type ResolveTrigger = (id: string) => { unwrap(): Promise<unknown> };

/**
 * SPEC §4: the row shows resolved at once (persisted resolved list), then the server is told
 * through the given mutation (the regular or a campaign endpoint); a failure is reported but the local change stays.
 */
export function useResolve(resolve: ResolveTrigger) {
  const dispatch = useAppDispatch();
  const resolvedIds = useAppSelector(selectResolvedIds);
  const { enqueueSnackbar } = useSnackbar();
  const onResolve = useCallback(
    async (id: string) => {
      dispatch(transactionResolved(id));
      try {
        await resolve(id).unwrap();
        enqueueSnackbar('Resolved', { variant: 'success' });
      } catch {
        enqueueSnackbar('Unexpected error', { variant: 'error' });
      }
    },
    [dispatch, resolve, enqueueSnackbar],
  );
  return { resolvedIds, onResolve };
}

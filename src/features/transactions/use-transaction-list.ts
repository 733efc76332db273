import { useCallback, useEffect } from 'react';
import { useSnackbar } from 'notistack';
import { useResolveTransactionMutation } from '../../api/transactions-api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectResolvedIds, transactionResolved } from '../../app/resolved-slice';

/** SPEC §8: each finished load says what it loaded, or 'Unexpected error'. */
export function useLoadToasts(query: { requestId?: string; isFetching: boolean; isError: boolean }, message: string) {
  const { enqueueSnackbar } = useSnackbar();
  const { requestId, isFetching, isError } = query;
  useEffect(() => {
    if (!requestId || isFetching) return;
    if (isError) enqueueSnackbar('Unexpected error', { variant: 'error' });
    else enqueueSnackbar(message, { variant: 'success' });
    // Once per request: the message is read when that request ends.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestId, isFetching]);
}

/**
 * SPEC §4: the row shows resolved at once (persisted resolved list), then the server is told;
 * a failure is reported but the local change stays.
 */
export function useResolve() {
  const dispatch = useAppDispatch();
  const resolvedIds = useAppSelector(selectResolvedIds);
  const [resolve] = useResolveTransactionMutation();
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

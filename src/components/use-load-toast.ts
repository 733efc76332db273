import { useEffect, useEffectEvent } from 'react';
import { useSnackbar } from 'notistack';

/** What the toast reads of an RTK Query result. */
export interface LoadState {
  requestId?: string;
  isFetching: boolean;
  isError?: boolean;
}

/**
 * SPEC §8: each finished load raises 'Unexpected error' when it failed, and says what it loaded
 * when `successText` is given: the list's name ('Categories'), 'Transactions for {date}' and so on.
 */
export function useLoadToast({ requestId, isFetching, isError }: LoadState, successText?: string) {
  const { enqueueSnackbar } = useSnackbar();
  // The text is read when a request ends, not a reason to toast again.
  const toast = useEffectEvent((failed: boolean) => {
    if (failed) enqueueSnackbar('Unexpected error', { variant: 'error' });
    else if (successText) enqueueSnackbar(successText, { variant: 'success' });
  });
  useEffect(() => {
    if (requestId && !isFetching) toast(Boolean(isError));
  }, [requestId, isFetching, isError]);
}

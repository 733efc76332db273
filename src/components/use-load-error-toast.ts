import { useEffect } from 'react';
import { useSnackbar } from 'notistack';

/** The list screens' load-failure toast: 'Unexpected error' each time the query turns to error. */
export function useLoadErrorToast(isError: boolean | undefined) {
  const { enqueueSnackbar } = useSnackbar();
  useEffect(() => {
    if (isError) enqueueSnackbar('Unexpected error', { variant: 'error' });
  }, [isError, enqueueSnackbar]);
}

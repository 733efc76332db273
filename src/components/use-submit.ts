import { useCallback } from 'react';
import type { FormikErrors, FormikHelpers } from 'formik';
import { useSnackbar } from 'notistack';
import { readApiError, type ApiErrorInfo } from '../api/api-error';

export interface SubmitTexts<V> {
  /** The toast once the call succeeded. */
  success: string;
  /** The error toast: a fixed text, or SPEC §8's mapping of the failure (null: stay quiet, as on a 401). */
  failure: string | ((info: ApiErrorInfo) => string | null);
  /** When given, a bad input's field errors show under their fields. */
  helpers?: Pick<FormikHelpers<V>, 'setErrors'>;
}

const BAD_INPUT = [400, 422];

/**
 * The one submit path of the forms: runs the call (`mutation(args).unwrap()`), raises the success
 * toast, or maps the failure to field errors and an error toast. Resolves true on success.
 */
export function useSubmit() {
  const { enqueueSnackbar } = useSnackbar();
  return useCallback(
    async <V>(send: () => Promise<unknown>, { success, failure, helpers }: SubmitTexts<V>): Promise<boolean> => {
      try {
        await send();
        enqueueSnackbar(success, { variant: 'success' });
        return true;
      } catch (error) {
        const info = readApiError(error);
        if (helpers && info.errors.length && info.status !== null && BAD_INPUT.includes(info.status)) {
          helpers.setErrors(Object.fromEntries(info.errors.map((e) => [e.field, e.message])) as FormikErrors<V>);
        }
        const text = typeof failure === 'string' ? failure : failure(info);
        if (text) enqueueSnackbar(text, { variant: 'error' });
        return false;
      }
    },
    [enqueueSnackbar],
  );
}

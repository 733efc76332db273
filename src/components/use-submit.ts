import { useCallback } from 'react';
import type { FormikErrors, FormikHelpers } from 'formik';
import { useSnackbar, type VariantType } from 'notistack';
import { readApiError, type ApiErrorInfo } from '../api/api-error';
import { useToastSlot, type ToastExtras } from './use-load-toast';

/** A toast's text, in success style unless it names its variant; with a control and a longer stay when given. */
export type ToastText = string | ({ text: string; variant: VariantType } & ToastExtras);

export interface SubmitTexts<V, R> {
  /** The toast once the call succeeded: a fixed text, one read from the answer, or null for none. */
  success: ToastText | ((answer: R) => ToastText) | null;
  /** The error toast: a fixed text, or SPEC §8's mapping of the failure (null: stay quiet, as on a 401). */
  failure: string | ((info: ApiErrorInfo) => string | null);
  /** When given, a bad input's field errors show under their fields. */
  helpers?: Pick<FormikHelpers<V>, 'setErrors'>;
}

export interface SubmitOptions {
  /** Each toast replaces the one this submit raised before, if still on screen (a run of Resolve clicks). */
  replacePrevious?: boolean;
}

const BAD_INPUT = [400, 422];

/** The failure as the server worded it, or SPEC §8's 'Unexpected error' when it said nothing. */
export const serverMessage = (info: ApiErrorInfo) => info.message || 'Unexpected error';

/**
 * The one submit path of the screens: runs the call (`mutation(args).unwrap()`, with whatever the
 * screen does with the answer), raises the success toast, or maps the failure to field errors and
 * an error toast. Resolves true on success.
 */
export function useSubmit({ replacePrevious = false }: SubmitOptions = {}) {
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  const toastSlot = useToastSlot();
  return useCallback(
    async <V, R>(send: () => Promise<R>, { success, failure, helpers }: SubmitTexts<V, R>): Promise<boolean> => {
      const toast = (text: string, variant: VariantType, extras: ToastExtras = {}) => {
        if (replacePrevious) return toastSlot(text, variant, extras);
        const { action, toastMs } = extras;
        return enqueueSnackbar(text, { variant, ...(toastMs ? { toastMs } : {}), ...(action ? { action: (key) => action(() => closeSnackbar(key)) } : {}) });
      };
      let answer: R;
      try {
        answer = await send();
      } catch (error) {
        const info = readApiError(error);
        if (helpers && info.errors.length && info.status !== null && BAD_INPUT.includes(info.status)) {
          helpers.setErrors(Object.fromEntries(info.errors.map((e) => [e.field, e.message])) as FormikErrors<V>);
        }
        const text = typeof failure === 'string' ? failure : failure(info);
        if (text) toast(text, 'error');
        return false;
      }
      const said = typeof success === 'function' ? success(answer) : success;
      if (typeof said === 'string') toast(said, 'success');
      else if (said) toast(said.text, said.variant, said);
      return true;
    },
    [enqueueSnackbar, closeSnackbar, toastSlot, replacePrevious],
  );
}

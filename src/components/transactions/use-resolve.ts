import { createElement, useCallback } from 'react';
import Button from '@mui/material/Button';
import { useUndoResolveMutation, type ResolveRequest } from '../../api/transactions-api';
import { RESOLVE_UNDO_SECONDS } from '../../domain/resolution';
import { serverMessage, useSubmit } from '../use-submit';

/** A resolve mutation's trigger, e.g. the first item of `useResolveTransactionMutation()`. */
export type ResolveTrigger = (request: ResolveRequest) => { unwrap(): Promise<unknown> };

/** The resolve's toast stays as long as the server takes the undo back. */
export const UNDO_TOAST_MS = RESOLVE_UNDO_SECONDS * 1000;

/**
 * SPEC §4 and §8: tells the server through the given mutation (the regular or a campaign
 * endpoint), which shows the row resolved at once and takes it back if refused
 * (api/resolve-in-cache.ts); 'Resolved' or 'Unexpected error', a run of clicks replacing its toast.
 * The row's button resolves at once (SPEC §4), so its toast offers Undo for as long as the server
 * takes it back (RESOLVE_UNDO_SECONDS): one slip on a phone is not for good. The keyboard queue's
 * dialog adds a reason and note. Answers whether the server resolved it.
 */
export function useResolve(resolve: ResolveTrigger): (request: ResolveRequest) => Promise<boolean> {
  const submit = useSubmit({ replacePrevious: true });
  const [undoResolve] = useUndoResolveMutation();
  const undo = useCallback(
    (id: string) => submit(() => undoResolve({ id }).unwrap(), { success: 'Resolve undone', failure: serverMessage }),
    [undoResolve, submit],
  );
  return useCallback(
    (request: ResolveRequest) =>
      submit(() => resolve(request).unwrap(), {
        success: {
          text: 'Resolved',
          variant: 'success',
          toastMs: UNDO_TOAST_MS,
          action: (close) =>
            createElement(
              Button,
              {
                size: 'small',
                color: 'inherit',
                variant: 'outlined',
                onClick: () => {
                  close();
                  void undo(request.id);
                },
              },
              'Undo',
            ),
        },
        failure: 'Unexpected error',
      }),
    [resolve, submit, undo],
  );
}

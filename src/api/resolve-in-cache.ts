import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Transaction } from '../domain/entities';
import type { PagedList } from '../domain/paged-list';
import { baseApi, type ApiTagType } from './base-api';

/** The lists that show a call; each tags its rows by id (listTags). */
const LISTS_OF_CALLS: ApiTagType[] = ['Transaction', 'FailedTransaction', 'CampaignTransaction'];

type AppDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;
type PatchThunk = (dispatch: AppDispatch, getState: () => unknown) => { undo: () => void };
// Which list answers hold the row is known only at run time (selectInvalidatedBy), so their
// endpoints are named by string: every one of them answers a PagedList<Transaction>.
type UpdateAnyList = (endpointName: string, args: unknown, recipe: (draft: unknown) => void) => PatchThunk;

/** What a thunk or an RTK Query lifecycle gives to read and patch the cache. */
export interface CacheAccess {
  dispatch: AppDispatch;
  getState: () => unknown;
}

interface ResolveLifecycle extends CacheAccess {
  queryFulfilled: Promise<{ data: Transaction }>;
}

/**
 * Changes the row of call `id` in every cached list that holds it (the lists, their pages, a
 * search; regular and campaign), in place; the patches can be undone. Used by resolve and by the
 * live stream's status and resolve changes.
 */
export function patchCallInCachedLists(id: string, change: (row: Transaction) => void, { dispatch, getState }: CacheAccess): { undo: () => void }[] {
  const lists = baseApi.util.selectInvalidatedBy(getState() as never, LISTS_OF_CALLS.map((type) => ({ type, id })));
  const update = baseApi.util.updateQueryData as unknown as UpdateAnyList;
  return lists.map(({ endpointName, originalArgs }) =>
    dispatch(
      update(endpointName, originalArgs, (draft) => {
        const row = (draft as Partial<PagedList<Transaction>> | undefined)?.docs?.find((candidate) => candidate._id === id);
        if (row) change(row);
      }),
    ),
  );
}

/**
 * One truth for Resolved, the server's `isResolved`: every cached list holding the call shows it
 * resolved at once, then as the server answered; if the server refuses, the rows go back and the
 * call can be resolved again. (SPEC §4 kept a local 'resolved' that survived a failed call; DESIGN
 * §5 departs: a list never claims a resolve the server did not record.)
 */
export async function resolveInCachedLists(id: string, { dispatch, getState, queryFulfilled }: ResolveLifecycle): Promise<void> {
  const patchRow = (change: (row: Transaction) => void) => patchCallInCachedLists(id, change, { dispatch, getState });
  const optimistic = patchRow((row) => {
    row.isResolved = true;
  });
  try {
    const { data: answered } = await queryFulfilled;
    patchRow((row) => Object.assign(row, answered));
  } catch {
    for (const patch of optimistic) patch.undo();
  }
}

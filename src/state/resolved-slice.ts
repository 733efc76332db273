import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loggedOut } from './session-slice';

/** Transactions resolved in this session; a row shows Yes even before the list reloads (SPEC §4). */
export interface ResolvedState {
  ids: string[];
}

const initialState: ResolvedState = { ids: [] };

const resolvedSlice = createSlice({
  name: 'resolved',
  initialState,
  reducers: {
    transactionResolved: (state, action: PayloadAction<string>) => {
      if (!state.ids.includes(action.payload)) state.ids.push(action.payload);
    },
  },
  // Signing out clears everything kept for the session.
  extraReducers: (builder) => builder.addCase(loggedOut, () => initialState),
  selectors: {
    selectResolvedIds: (state) => state.ids,
    selectIsResolved: (state, id: string) => state.ids.includes(id),
  },
});

export const { transactionResolved } = resolvedSlice.actions;
export const { selectResolvedIds, selectIsResolved } = resolvedSlice.selectors;
export const resolvedReducer = resolvedSlice.reducer;

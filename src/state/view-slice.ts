import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loggedOut, signedIn } from './session-slice';

/**
 * The service code and day a person is looking at, carried from one screen that shows one to the
 * next (Transactions, Failed, Dashboard) for the session: kept in memory only, so a reload or the
 * next person starts again from their own code and today.
 */
export interface ViewState {
  /** The chosen code, '' for every code in scope; null until the person moves off their default. */
  serviceCode: string | null;
  /** The chosen day `YYYY-MM-DD`; null until the person moves off today. */
  date: string | null;
}

const initialState: ViewState = { serviceCode: null, date: null };

const viewSlice = createSlice({
  name: 'view',
  initialState,
  reducers: {
    serviceCodeDayChosen: (state, action: PayloadAction<{ serviceCode?: string; date?: string }>) => {
      if (action.payload.serviceCode !== undefined) state.serviceCode = action.payload.serviceCode;
      if (action.payload.date !== undefined) state.date = action.payload.date;
    },
  },
  // Another sign-in is another person: their view starts at their own default.
  extraReducers: (builder) => {
    builder.addCase(signedIn, () => initialState).addCase(loggedOut, () => initialState);
  },
  selectors: {
    selectChosenView: (state) => state,
  },
});

export const { serviceCodeDayChosen } = viewSlice.actions;
export const { selectChosenView } = viewSlice.selectors;
export const viewReducer = viewSlice.reducer;

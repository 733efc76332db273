import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loggedOut, signedIn } from './session-slice';

/**
 * The service code and day a person last looked at, carried from one screen that shows one to the
 * next (Transactions, Failed, Dashboard) for the session: kept in memory only, so a reload or the
 * next person starts again from their own code and today. The links to those screens carry it in
 * their query, so the URL stays the one place a view lives (Back, reload and a copied link agree).
 */
export interface ViewState {
  /** The chosen code, '' for every code in scope; null until the person looks at another than their own. */
  serviceCode: string | null;
  /** The chosen day `YYYY-MM-DD`; null until the person looks at another day than today. */
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

/** The query a link to a screen of one code and day carries ('' when nothing was chosen). */
export function carriedViewQuery(view: ViewState): string {
  const query = new URLSearchParams();
  if (view.serviceCode !== null) query.set('name', view.serviceCode);
  if (view.date !== null) query.set('date', view.date);
  return query.toString();
}

import { combineReducers, configureStore, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, persistReducer } from 'redux-persist';
import storage from 'redux-persist/lib/storage';
import { baseApi } from '../api/base-api';
import { SESSION_PERSIST_KEY, UI_PERSIST_KEY } from './persisted-storage';
import { loggedOut, sessionReducer } from './session-slice';
import { uiReducer } from './ui-slice';
import { viewReducer } from './view-slice';

// One key per slice so a slice's stored shape can change without touching the others; the keys
// live in persisted-storage.ts, which the entry reads to tell a stored session without loading redux.
const persisted = <S>(key: string, reducer: (state: S | undefined, action: UnknownAction) => S) =>
  persistReducer({ key, storage }, reducer);

const appReducer = combineReducers({
  session: persisted(SESSION_PERSIST_KEY, sessionReducer),
  ui: persisted(UI_PERSIST_KEY, uiReducer),
  // The chosen code and day last the session only.
  view: viewReducer,
  // The RTK Query cache is never persisted.
  [baseApi.reducerPath]: baseApi.reducer,
});

export type RootState = ReturnType<typeof appReducer>;

/** Signing out also drops every cached answer, so the next person sees none of them. */
const rootReducer: Reducer<RootState, UnknownAction, Partial<RootState>> = (state, action) =>
  appReducer(
    action.type === loggedOut.type && state ? { ...state, [baseApi.reducerPath]: undefined } : state,
    action,
  );

/** A fresh store: one per app start, one per test. */
export function setupStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({
        // Development-only checks; the RTK Query cache is RTK's own and walking its pages on every
        // action took 30–40 ms each, so the checks watch our slices only.
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER], ignoredPaths: [baseApi.reducerPath] },
        immutableCheck: { ignoredPaths: [baseApi.reducerPath] },
      }).concat(baseApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];

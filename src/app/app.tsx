import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { PersistGate } from 'redux-persist/integration/react';
import type { Persistor } from 'redux-persist';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { SnackbarProvider, useSnackbar } from 'notistack';
import { listenForHandedOverTokens } from '../api/token-handover';
import { useAppSelector } from '../state/hooks';
import { appRoutes } from './routes';
import type { AppStore } from '../state/store';
import { cellControlStyles } from '../components/cell-controls';
import { buildTheme } from '../components/theme';
import { MAX_TOASTS, TOAST_PROVIDER_PROPS } from '../components/toast';
import { PHONE_QUERY } from '../domain/first-visit';
import { selectColorMode } from '../state/ui-slice';

function ThemedApp({ children }: { children: ReactNode }) {
  const mode = useAppSelector(selectColorMode);
  const theme = useMemo(() => buildTheme(mode), [mode]);
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {/* The grids' light chips and buttons, for the app only: the sign-in page before it has no grid (its budget). */}
      <GlobalStyles styles={cellControlStyles} />
      <SnackbarProvider {...TOAST_PROVIDER_PROPS} maxSnack={phone ? MAX_TOASTS.phone : MAX_TOASTS.wide}>
        {children}
      </SnackbarProvider>
    </ThemeProvider>
  );
}

/**
 * Redux, rehydration, theme and toasts. The date pickers' LocalizationProvider comes with the
 * calendar (components/day-calendar.tsx), loaded when someone opens it.
 */
export function AppProviders({ store, persistor, children }: { store: AppStore; persistor: Persistor; children: ReactNode }) {
  const app = <ThemedApp>{children}</ThemedApp>;
  return (
    <Provider store={store}>
      {/* Rehydrated already (bootApp waits for it), the app renders in the caller's update, a
          transition React splits into short tasks. The gate would render nothing, then the whole
          app in one urgent update: one long task on a slow phone. */}
      {persistor.getState().bootstrapped ? (
        app
      ) : (
        <PersistGate loading={null} persistor={persistor}>
          {app}
        </PersistGate>
      )}
    </Provider>
  );
}

/**
 * The route table rendered by whichever router is around it (BrowserRouter in the app,
 * MemoryRouter in tests). Declarative routing keeps react-router's data-router code, which we
 * do not use, out of the first download.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}

/** Carries the first visit's sign-in page's 'Logged in' over into the app's toasts, once (StrictMode runs effects twice). */
export function LoggedInToast() {
  const { enqueueSnackbar } = useSnackbar();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    enqueueSnackbar('Logged in', { variant: 'success' });
  }, [enqueueSnackbar]);
  return null;
}

/** `children` render beside the routes, inside every provider (boot.tsx's 'Logged in' toast). */
export function App({ store, persistor, children }: { store: AppStore; persistor: Persistor; children?: ReactNode }) {
  // For the app's life: a pair another tab of the session refreshes to is heard before this tab needs it.
  useEffect(() => listenForHandedOverTokens(), []);
  return (
    <AppProviders store={store} persistor={persistor}>
      <BrowserRouter>
        <AppRoutes />
        {children}
      </BrowserRouter>
    </AppProviders>
  );
}

import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
// MUI's own ThemeProvider without its CSS-variables half (colour-scheme storage and scripts),
// which a theme from createTheme never uses: what @mui/material's ThemeProviderNoVars renders.
import ThemeProvider from '@mui/system/ThemeProvider';
import { requestLogin, type LoginRequest, type LoginResults } from '../../api/login-request';
import { storedColorMode } from '../../state/persisted-storage';
import { buildTheme } from '../../components/theme';
import { ToastView } from '../../components/toast-view';
import { AuthCard } from './auth-card';
import { SignInForm } from './sign-in-form';

interface Toast {
  message: string;
  severity: 'success' | 'error';
  /** A new toast, even with the same text, starts its time afresh. */
  id: number;
}

/** The app's toast (SPEC §8) where notistack would be: top-center, one at a time. */
function LightToast({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  return (
    <Box sx={{ position: 'fixed', top: 24, left: '50%', transform: 'translateX(-50%)', zIndex: 'snackbar' }}>
      <ToastView key={toast.id} message={toast.message} variant={toast.severity} onClose={onClose} />
    </Box>
  );
}

/**
 * The sign-in page of a first visit to '/' without a stored session: React and a few MUI parts
 * only, no redux, router, notistack, Formik or yup (bench:web's budget for '/'). It signs in
 * with plain fetch and hands the session to `onSignedIn`, which boots the full app.
 */
export function LightSignIn({ onSignedIn }: { onSignedIn: (results: LoginResults) => Promise<void> }) {
  const theme = useMemo(() => buildTheme(storedColorMode()), []);
  const [toast, setToast] = useState<Toast | null>(null);
  const closeToast = useMemo(() => () => setToast(null), []);

  const submit = async (credentials: LoginRequest) => {
    const outcome = await requestLogin(credentials);
    if (!outcome.ok) {
      // SPEC §8: no answer at all differs from every other failure.
      const message = outcome.noAnswer ? 'Something wrong happened during the request' : 'Incorrect username or password';
      setToast({ message, severity: 'error', id: Date.now() });
      return;
    }
    setToast({ message: 'Logged in', severity: 'success', id: Date.now() });
    try {
      // The button keeps spinning until the full app replaces this page.
      await onSignedIn(outcome.results);
    } catch {
      setToast({ message: 'Something wrong happened during the request', severity: 'error', id: Date.now() });
    }
  };

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AuthCard title="Sign in" subtitle="Operator console of the service-code ticketing service">
        <SignInForm onSubmit={submit} />
      </AuthCard>
      {toast && <LightToast toast={toast} onClose={closeToast} />}
    </ThemeProvider>
  );
}

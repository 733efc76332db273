import { useEffect, useMemo, useState } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import Paper from '@mui/material/Paper';
// MUI's own ThemeProvider without its CSS-variables half (colour-scheme storage and scripts),
// which a theme from createTheme never uses: what @mui/material's ThemeProviderNoVars renders.
import ThemeProvider from '@mui/system/ThemeProvider';
import { requestLogin, type LoginRequest, type LoginResults } from '../../api/login-request';
import { storedColorMode } from '../../state/persisted-storage';
import { buildTheme } from '../../components/theme';
import { AuthCard } from './auth-card';
import { SignInForm } from './sign-in-form';

/** SPEC §8: a toast stays 5000 ms unless clicked. */
const TOAST_MS = 5000;

interface Toast {
  message: string;
  severity: 'success' | 'error';
}

/** A notistack-like toast (top-center, 5000 ms, closes on click) made of a Paper the card already loads. */
function LightToast({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onClose, TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, onClose]);
  return (
    <Paper
      role="alert"
      elevation={6}
      onClick={onClose}
      sx={{
        position: 'fixed',
        top: 24,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 'snackbar',
        px: 2,
        py: 1.5,
        cursor: 'pointer',
        bgcolor: `${toast.severity}.main`,
        color: `${toast.severity}.contrastText`,
      }}
    >
      {toast.message}
    </Paper>
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
      setToast({ message, severity: 'error' });
      return;
    }
    setToast({ message: 'Logged in', severity: 'success' });
    try {
      // The button keeps spinning until the full app replaces this page.
      await onSignedIn(outcome.results);
    } catch {
      setToast({ message: 'Something wrong happened during the request', severity: 'error' });
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

import { Suspense, useMemo, useState } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
// MUI's own ThemeProvider without its CSS-variables half (colour-scheme storage and scripts),
// which a theme from createTheme never uses: what @mui/material's ThemeProviderNoVars renders.
import ThemeProvider from '@mui/system/ThemeProvider';
import { requestLogin, requestTwoFactorVerify, type LoginRequest, type LoginResults, type TwoFactorVerifyRequest } from '../../api/login-request';
import { storedColorMode } from '../../state/persisted-storage';
import { buildTheme } from '../../components/theme';
import { TOAST_STACK_CLASS } from '../../components/toast-stack';
import { ToastView } from '../../components/toast-view';
import { AuthCard } from './auth-card';
import { SignInForm, type SignInFormProps } from './sign-in-form';
import { lazyNamed } from '../../components/lazy-import';

// Loaded when an enrolled account's password was right, not with the first visit's page (bench:web's budget).
const TwoFactorStep = lazyNamed(() => import('./two-factor-step'), 'TwoFactorStep');

export type ToastSeverity = 'success' | 'error';

export interface SignInPageProps {
  /** Called with the new session once the API accepted the credentials; the button spins until it settles. */
  onSignedIn: (results: LoginResults) => Promise<void> | void;
  /** Raises a toast: the app's (notistack) inside the app, the page's own before it loads. */
  notify: (message: string, severity: ToastSeverity) => void;
  renderLink?: SignInFormProps['renderLink'];
}

/**
 * SPEC §2 sign in, the one the product has: the form, the call (plain fetch, login-request.ts) and
 * SPEC §8's toasts. A first visit shows it before the app loads (StandaloneSignIn); the app's '/'
 * route shows it with the app's toasts (sign-in-screen.tsx). React and a few MUI parts only, no
 * redux, router, notistack, Formik or yup: bench:web's budget for '/'.
 */
export function SignInPage({ onSignedIn, notify, renderLink }: SignInPageProps) {
  // Set once the password was right for an account with two-factor sign-in: the second step shows.
  const [challenge, setChallenge] = useState<string | null>(null);
  const signedIn = async (results: LoginResults) => {
    notify('Logged in', 'success');
    try {
      // The button keeps spinning until the app has taken the session.
      await onSignedIn(results);
    } catch {
      notify('Something wrong happened during the request', 'error');
    }
  };
  const submit = async (credentials: LoginRequest) => {
    const outcome = await requestLogin(credentials);
    if (outcome.ok === 'challenge') return setChallenge(outcome.challenge);
    if (!outcome.ok) {
      // SPEC §8: no answer at all differs from every other failure.
      notify(outcome.noAnswer ? 'Something wrong happened during the request' : 'Incorrect username or password', 'error');
      return;
    }
    await signedIn(outcome.results);
  };
  const verify = async (factor: Omit<TwoFactorVerifyRequest, 'challenge'>): Promise<string | null> => {
    if (!challenge) return null;
    const outcome = await requestTwoFactorVerify({ challenge, ...factor });
    if (outcome.ok) {
      await signedIn(outcome.results);
      return null;
    }
    if (outcome.noAnswer) {
      notify('Something wrong happened during the request', 'error');
      return null;
    }
    if (outcome.ended) {
      notify('Too many wrong codes or too long: please sign in again', 'error');
      setChallenge(null);
      return null;
    }
    return factor.code ? 'Incorrect code' : 'Incorrect or already used recovery code';
  };
  return challenge ? (
    <AuthCard title="Two-factor sign-in" subtitle="One more step to sign in">
      <Suspense fallback={null}>
        <TwoFactorStep onSubmit={verify} onBack={() => setChallenge(null)} />
      </Suspense>
    </AuthCard>
  ) : (
    <AuthCard title="Sign in" subtitle="Operator console of the service-code ticketing service">
      <SignInForm onSubmit={submit} renderLink={renderLink} />
    </AuthCard>
  );
}

interface Toast {
  message: string;
  severity: ToastSeverity;
  /** A new toast, even with the same text, starts its time afresh. */
  id: number;
}

/**
 * The sign-in page of a first visit to '/' without a stored session, before the app loads: the
 * app's theme, and its toast where the app's stand (toast-stack.ts), one at a time. It hands the
 * session to `onSignedIn`, which boots the app.
 */
export function StandaloneSignIn({ onSignedIn }: { onSignedIn: (results: LoginResults) => Promise<void> }) {
  const theme = useMemo(() => buildTheme(storedColorMode()), []);
  const [toast, setToast] = useState<Toast | null>(null);
  const notify = useMemo(() => (message: string, severity: ToastSeverity) => setToast({ message, severity, id: Date.now() }), []);
  const closeToast = useMemo(() => () => setToast(null), []);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SignInPage onSignedIn={onSignedIn} notify={notify} />
      {toast && (
        <div className={TOAST_STACK_CLASS}>
          <ToastView key={toast.id} message={toast.message} variant={toast.severity} onClose={closeToast} />
        </div>
      )}
    </ThemeProvider>
  );
}

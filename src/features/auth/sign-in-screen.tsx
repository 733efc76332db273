import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import { useSnackbar } from 'notistack';
import { useLoginMutation } from '../../api/auth-api';
import { readApiError } from '../../api/api-error';
import type { LoginRequest } from '../../api/login-request';
import { useAppDispatch } from '../../state/hooks';
import { signedIn } from '../../state/session-slice';
import { AuthCard } from './auth-card';
import { SignInForm } from './sign-in-form';

const routerLink = (to: string, label: string) => (
  <Link component={RouterLink} to={to} variant="body2">
    {label}
  </Link>
);

/**
 * SPEC §2 sign in inside the full app (after a logout, or a reload with a stale session); the
 * public route guard sends the new session home. A first visit gets light-sign-in.tsx instead.
 */
export default function SignInScreen() {
  const [login] = useLoginMutation();
  const dispatch = useAppDispatch();
  const { enqueueSnackbar } = useSnackbar();

  const submit = async (credentials: LoginRequest) => {
    try {
      const results = await login(credentials).unwrap();
      enqueueSnackbar('Logged in', { variant: 'success' });
      dispatch(signedIn(results));
    } catch (error) {
      // SPEC §8: no answer at all differs from every other failure.
      const noAnswer = readApiError(error).status === null;
      enqueueSnackbar(noAnswer ? 'Something wrong happened during the request' : 'Incorrect username or password', {
        variant: 'error',
      });
    }
  };

  return (
    <AuthCard title="Sign in" subtitle="Operator console of the service-code ticketing service">
      <SignInForm onSubmit={submit} renderLink={routerLink} />
    </AuthCard>
  );
}

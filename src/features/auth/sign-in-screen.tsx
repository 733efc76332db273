import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import { useSnackbar } from 'notistack';
import { useAppDispatch } from '../../state/hooks';
import { signedIn } from '../../state/session-slice';
import { SignInPage } from './sign-in-page';

const routerLink = (to: string, label: string) => (
  <Link component={RouterLink} to={to} variant="body2">
    {label}
  </Link>
);

/**
 * The app's '/' (after a logout, or a reload with a stale session): the one sign-in page with the
 * app's toasts and links; the public route guard sends the new session home.
 */
export default function SignInScreen() {
  const dispatch = useAppDispatch();
  const { enqueueSnackbar } = useSnackbar();
  return (
    <SignInPage
      notify={(message, severity) => enqueueSnackbar(message, { variant: severity })}
      onSignedIn={(results) => {
        dispatch(signedIn(results));
      }}
      renderLink={routerLink}
    />
  );
}

import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { SubmitButton } from '../../components/form-dialog';

/** The foot of the forgot and reset password forms: the submit button and the way back to sign in. */
export function PasswordFormActions({ submitLabel }: { submitLabel: string }) {
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <SubmitButton label={submitLabel} fullWidth />
      <Link component={RouterLink} to="/" variant="body2">
        Back to sign in
      </Link>
    </Stack>
  );
}

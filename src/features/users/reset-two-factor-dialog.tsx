import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useResetUserTwoFactorMutation } from '../../api/two-factor-api';
import { serverMessage, useSubmit } from '../../components/use-submit';
import type { User } from '../../domain/entities';

/** Asks before resetting an account's two-factor sign-in (a lost phone): its old codes stop working. */
export function ResetTwoFactorDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [reset, { isLoading }] = useResetUserTwoFactorMutation();
  const submit = useSubmit();
  const confirm = async () => {
    if (!user) return;
    if (await submit(() => reset({ id: user._id }).unwrap(), { success: 'Two-factor sign-in reset', failure: serverMessage })) onClose();
  };
  return (
    <Dialog open={user !== null} onClose={isLoading ? undefined : onClose} aria-labelledby="reset-2fa-title" aria-describedby="reset-2fa-text" fullWidth maxWidth="xs">
      <DialogTitle id="reset-2fa-title">Reset two-factor sign-in of {user?.userName}?</DialogTitle>
      <DialogContent>
        <DialogContentText id="reset-2fa-text">
          Their authenticator app and recovery codes stop working. They sign in with their password and set two-factor sign-in up again on their profile.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={confirm} disabled={isLoading} startIcon={isLoading ? <CircularProgress size={16} color="inherit" aria-label="Resetting" /> : undefined}>
          Reset
        </Button>
      </DialogActions>
    </Dialog>
  );
}

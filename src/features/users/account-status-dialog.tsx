import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useSetUserDisabledMutation } from '../../api/users-api';
import { serverMessage, useSubmit } from '../../components/use-submit';
import type { User } from '../../domain/entities';

/**
 * Asks before disabling or enabling an account: disabling signs its holder out everywhere at
 * once, which a stray click must not do. The toast is the server's word.
 */
export function AccountStatusDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [setDisabled, { isLoading }] = useSetUserDisabledMutation();
  const submit = useSubmit();
  const disabling = !user?.disabled;
  const verb = disabling ? 'Disable' : 'Enable';
  const confirm = async () => {
    if (!user) return;
    const done = await submit(() => setDisabled({ id: user._id, disabled: disabling }).unwrap(), { success: disabling ? 'The account is disabled' : 'The account is enabled', failure: serverMessage });
    if (done) onClose();
  };
  return (
    <Dialog open={user !== null} onClose={isLoading ? undefined : onClose} aria-labelledby="account-status-title" aria-describedby="account-status-text" fullWidth maxWidth="xs">
      <DialogTitle id="account-status-title">{verb} {user?.userName}?</DialogTitle>
      <DialogContent>
        <DialogContentText id="account-status-text">
          {disabling
            ? 'They are signed out everywhere within seconds and cannot sign in until an admin enables the account again. Their records stay.'
            : 'They can sign in again with their password.'}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={disabling ? 'error' : 'primary'}
          onClick={confirm}
          disabled={isLoading}
          startIcon={isLoading ? <CircularProgress size={16} color="inherit" aria-label={disabling ? 'Disabling' : 'Enabling'} /> : undefined}
        >
          {verb} account
        </Button>
      </DialogActions>
    </Dialog>
  );
}

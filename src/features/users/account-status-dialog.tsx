import { useSetUserDisabledMutation } from '../../api/users-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
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
    <ConfirmDialog
      open={user !== null}
      id="account-status"
      title={`${verb} ${user?.userName ?? ''}?`}
      text={
        disabling
          ? 'They are signed out everywhere within seconds and cannot sign in until an admin enables the account again. Their records stay.'
          : 'They can sign in again with their password.'
      }
      confirmLabel={`${verb} account`}
      busyLabel={disabling ? 'Disabling' : 'Enabling'}
      busy={isLoading}
      color={disabling ? 'error' : 'primary'}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}

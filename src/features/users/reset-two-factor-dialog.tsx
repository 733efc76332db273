import { useResetUserTwoFactorMutation } from '../../api/two-factor-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
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
    <ConfirmDialog
      open={user !== null}
      id="reset-2fa"
      title={`Reset two-factor sign-in of ${user?.userName ?? ''}?`}
      text="Their authenticator app and recovery codes stop working. They sign in with their password and set two-factor sign-in up again on their profile."
      confirmLabel="Reset"
      busyLabel="Resetting"
      busy={isLoading}
      color="error"
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}

import { useSnackbar } from 'notistack';
import { readApiError } from '../../api/api-error';
import { useCreateUserMutation, useUpdateUserMutation } from '../../api/users-api';
import { FormCard } from '../../components/form-card';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect, FormSwitch, FormTextField } from '../../components/form-fields';
import type { User } from '../../domain/entities';
import { ROLE_OPTIONS } from '../../domain/roles';
import { createUserSchema, updateUserSchema } from '../../domain/schemas/user';
import { userErrorText } from './user-errors';

type CreateValues = { userName: string; password: string; role: string };
type UpdateValues = { userName: string; password: string; isAfcon: boolean };

const emptyCreate: CreateValues = { userName: '', password: '', role: 'agent' };

function useFailureToast() {
  const { enqueueSnackbar } = useSnackbar();
  return (error: unknown) => {
    const text = userErrorText(readApiError(error));
    if (text) enqueueSnackbar(text, { variant: 'error' });
  };
}

/** 'Create new account': accounts are only created as agents; customer care is shown disabled. */
export function CreateUserForm() {
  const [createUser] = useCreateUserMutation();
  const { enqueueSnackbar } = useSnackbar();
  const failed = useFailureToast();
  const submit = async (values: CreateValues) => {
    try {
      await createUser({ userName: values.userName.trim(), password: values.password, role: 'agent' }).unwrap();
      enqueueSnackbar('Successfully created a new user', { variant: 'success' });
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };
  return (
    <FormCard title="Create new account" schema={createUserSchema} initialValues={emptyCreate} onSubmit={submit} submitLabel="Create account">
      <FormTextField name="userName" label="Username" autoComplete="off" />
      <FormTextField name="password" label="Password" type="password" autoComplete="new-password" />
      <FormSelect name="role" label="Role" options={ROLE_OPTIONS} noPlaceholder />
    </FormCard>
  );
}

/** 'Update user login information' with the Afcon-only switch (DESIGN §3). */
export function EditUserDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const [updateUser] = useUpdateUserMutation();
  const { enqueueSnackbar } = useSnackbar();
  const failed = useFailureToast();
  const initialValues: UpdateValues = { userName: user.userName, password: '', isAfcon: user.isAfcon ?? false };
  const submit = async (values: UpdateValues) => {
    try {
      await updateUser({
        id: user._id,
        userName: values.userName.trim(),
        isAfcon: values.isAfcon,
        ...(values.password ? { password: values.password } : {}),
      }).unwrap();
      enqueueSnackbar('Successfully updated a user', { variant: 'success' });
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Update user login information"
      schema={updateUserSchema}
      initialValues={initialValues}
      onSubmit={submit}
      submitLabel="Update"
    >
      <FormTextField name="userName" label="Username" autoComplete="off" />
      <FormTextField
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        helperText="Leave empty to keep the current password"
      />
      <FormSwitch name="isAfcon" label="Afcon-only account" />
    </FormDialog>
  );
}

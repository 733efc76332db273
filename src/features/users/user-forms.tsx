import { useCreateUserMutation, useUpdateUserMutation } from '../../api/users-api';
import { FormCard } from '../../components/form-card';
import { useHistoryTab } from '../../components/audit-history';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect, FormSwitch, FormTextField } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import type { User } from '../../domain/entities';
import { ROLE_OPTIONS, type CreatableRole } from '../../domain/roles';
import { createUserSchema, updateUserSchema } from '../../domain/schemas/user';
import { userErrorText } from './user-errors';

type CreateValues = { userName: string; password: string; role: CreatableRole };
type UpdateValues = { userName: string; password: string; isAfcon: boolean };

const emptyCreate: CreateValues = { userName: '', password: '', role: 'agent' };

/** 'Create new account': an agent, or a customer-care account for support staff. */
export function CreateUserForm() {
  const [createUser] = useCreateUserMutation();
  const run = useSubmit();
  const submit = (values: CreateValues) =>
    run(() => createUser({ userName: values.userName.trim(), password: values.password, role: values.role }).unwrap(), {
      success: 'Successfully created a new user',
      failure: (info) => userErrorText(info),
    });
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
  const history = useHistoryTab('user', user._id);
  const run = useSubmit();
  const initialValues: UpdateValues = { userName: user.userName, password: '', isAfcon: user.isAfcon ?? false };
  const submit = (values: UpdateValues) =>
    run(
      () =>
        updateUser({
          id: user._id,
          userName: values.userName.trim(),
          isAfcon: values.isAfcon,
          ...(values.password ? { password: values.password } : {}),
        }).unwrap(),
      { success: 'Successfully updated a user', failure: (info) => userErrorText(info) },
    );
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Update user login information"
      tabs={history}
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

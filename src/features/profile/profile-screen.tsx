import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { joinedErrorMessages, type ApiErrorInfo } from '../../api/api-error';
import { useGetProfileQuery, useUpdateProfileMutation } from '../../api/profile-api';
import { FormCard } from '../../components/form-card';
import { FormTextField } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import { profileSchema } from '../../domain/schemas/user';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { TwoFactorSection } from './two-factor-section';

type ProfileValues = { userName: string; email: string; myPassword: string; password: string };

/** SPEC §8 profile errors: 401 quiet, 500 joined, 404 wrong password, 403 name taken. */
function profileErrorText(info: ApiErrorInfo, userName: string): string | null {
  switch (info.status) {
    case 401:
      return null;
    case 500:
      return joinedErrorMessages(info) || 'Unable to update your profile';
    case 404:
      return 'Wrong password';
    case 403:
    case 409:
      return `Username ${userName} already taken`;
    default:
      return info.errors[0]?.message || info.message || 'Unable to update your profile';
  }
}

/** SPEC §2 profile at /account: 'Update profile info'. */
export default function ProfileScreen() {
  const profile = useGetProfileQuery();
  const sessionUser = useAppSelector(selectSessionUser);
  const [updateProfile] = useUpdateProfileMutation();
  const run = useSubmit();

  const submit = (values: ProfileValues) => {
    const userName = values.userName.trim();
    return run(
      () =>
        updateProfile({
          userName,
          // Sent even when empty: an emptied field removes the email (absent would keep it).
          email: values.email.trim(),
          myPassword: values.myPassword,
          ...(values.password ? { password: values.password } : {}),
        }).unwrap(),
      { success: 'Successfully updated your profile', failure: (info) => profileErrorText(info, userName) },
    );
  };

  const initialValues: ProfileValues = {
    userName: profile.data?.userName ?? '',
    email: profile.data?.email ?? '',
    myPassword: '',
    password: '',
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Profile
      </Typography>
      {profile.isError && <Alert severity="error">Unexpected error</Alert>}
      {profile.isLoading ? (
        <Skeleton variant="rounded" height={280} sx={{ maxWidth: 640 }} />
      ) : (
        <FormCard title="Update profile info" schema={profileSchema} initialValues={initialValues} onSubmit={submit} submitLabel="Update profile">
          <FormTextField name="userName" label="Username" autoComplete="username" />
          <FormTextField name="email" label="Email" type="email" autoComplete="email" />
          <FormTextField name="myPassword" label="Current password" type="password" autoComplete="current-password" />
          <FormTextField
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            helperText="Only fill if you need to create a new password"
          />
        </FormCard>
      )}
      {profile.data && <TwoFactorSection enabled={profile.data.twoFactorEnabled} required={Boolean(sessionUser?.twoFactorSetupRequired)} />}
    </Stack>
  );
}

import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Form, Formik } from 'formik';
import { useSnackbar } from 'notistack';
import { useLoginMutation } from '../../api/auth-api';
import { readApiError } from '../../api/api-error';
import { useAppDispatch } from '../../app/hooks';
import { signedIn } from '../../app/session-slice';
import { SubmitButton } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-fields';
import { loginSchema, type LoginInput } from '../../domain/schemas/auth';
import { AuthCard } from './auth-card';

const initialValues: LoginInput = { userName: '', password: '' };

/** SPEC §2 sign in; the public route guard sends the new session home. */
export default function SignInScreen() {
  const [login] = useLoginMutation();
  const dispatch = useAppDispatch();
  const { enqueueSnackbar } = useSnackbar();
  const [showPassword, setShowPassword] = useState(false);

  const submit = async (values: LoginInput) => {
    try {
      const results = await login({ userName: values.userName.trim(), password: values.password }).unwrap();
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
      <Formik initialValues={initialValues} validationSchema={loginSchema} onSubmit={submit}>
        <Form noValidate aria-label="Sign in">
          <FormTextField name="userName" label="Username" autoComplete="username" autoFocus />
          <FormTextField
            name="password"
            label="Password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
          />
          <FormControlLabel
            control={<Checkbox checked={showPassword} onChange={(event) => setShowPassword(event.target.checked)} />}
            label="Show password"
          />
          <Stack spacing={2} sx={{ mt: 1 }}>
            <SubmitButton label="Sign in" fullWidth />
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Link component={RouterLink} to="/forgot-password" variant="body2">
                Forgot password?
              </Link>
              <Link component={RouterLink} to="/examples/sign-up" variant="body2">
                Create an account
              </Link>
            </Stack>
          </Stack>
        </Form>
      </Formik>
    </AuthCard>
  );
}

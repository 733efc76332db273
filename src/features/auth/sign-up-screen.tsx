import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Form, Formik } from 'formik';
import { SubmitButton } from '../../components/form-dialog';
import { FormCheckbox, FormTextField } from '../../components/form-fields';
import { signUpSchema } from '../../domain/schemas/auth';
import { AuthCard } from './auth-card';

const initialValues = { email: '', password: '', confirmPassword: '', terms: false };

/** DESIGN §5: staff accounts come from an administrator, so sign up validates and explains; it creates nothing. */
export default function SignUpScreen() {
  const [submitted, setSubmitted] = useState(false);
  return (
    <AuthCard title="Create an account">
      {submitted && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Dialdesk accounts are created by an administrator. Please ask your administrator to create your account.
        </Alert>
      )}
      <Formik initialValues={initialValues} validationSchema={signUpSchema} onSubmit={() => setSubmitted(true)}>
        <Form noValidate aria-label="Create an account">
          <FormTextField name="email" label="Email" type="email" autoComplete="email" />
          <FormTextField name="password" label="Password" type="password" autoComplete="new-password" />
          <FormTextField name="confirmPassword" label="Confirm password" type="password" autoComplete="new-password" />
          <FormCheckbox name="terms" label="I agree to the terms and conditions" />
          <Stack spacing={2} sx={{ mt: 1 }}>
            <SubmitButton label="Sign up" fullWidth />
            <Link component={RouterLink} to="/" variant="body2">
              Already have an account? Sign in
            </Link>
          </Stack>
        </Form>
      </Formik>
    </AuthCard>
  );
}

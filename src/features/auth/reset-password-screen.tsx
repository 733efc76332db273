import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useResetPasswordMutation } from '../../api/auth-api';
import { readApiError } from '../../api/api-error';
import { FormTextField } from '../../components/form-fields';
import { resetPasswordSchema } from '../../domain/schemas/auth';
import { AuthCard } from './auth-card';
import { PasswordFormActions } from './password-form-actions';

type ResetValues = { password: string; confirmPassword: string };
type Banner = { severity: 'success' | 'error'; text: string };

const INVALID_LINK = 'This reset link is invalid or has expired';

/** SPEC §2 and §8: the token arrives as ?token=; a banner tells the outcome; the form clears on error. */
export default function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [resetPassword] = useResetPasswordMutation();
  const [banner, setBanner] = useState<Banner | null>(token ? null : { severity: 'error', text: INVALID_LINK });

  const submit = async (values: ResetValues, helpers: FormikHelpers<ResetValues>) => {
    try {
      const answer = await resetPassword({ token, password: values.password }).unwrap();
      setBanner({ severity: 'success', text: answer.message || 'Your password has been reset, you can now sign in' });
    } catch (error) {
      setBanner({ severity: 'error', text: readApiError(error).message || INVALID_LINK });
      helpers.resetForm();
    }
  };

  return (
    <AuthCard title="Reset password" subtitle="Choose a new password.">
      {banner && (
        <Alert severity={banner.severity} sx={{ mb: 2 }}>
          {banner.text}
          {banner.severity === 'success' && (
            <>
              {' '}
              <Link component={RouterLink} to="/">
                Sign in
              </Link>
            </>
          )}
        </Alert>
      )}
      <Formik initialValues={{ password: '', confirmPassword: '' }} validationSchema={resetPasswordSchema} onSubmit={submit}>
        <Form noValidate aria-label="Reset password">
          <FormTextField name="password" label="New password" type="password" autoComplete="new-password" />
          <FormTextField name="confirmPassword" label="Confirm password" type="password" autoComplete="new-password" />
          <PasswordFormActions submitLabel="Reset password" />
        </Form>
      </Formik>
    </AuthCard>
  );
}

import { Form, Formik } from 'formik';
import { useForgotPasswordMutation } from '../../api/auth-api';
import { FormTextField } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import { forgotPasswordSchema } from '../../domain/schemas/auth';
import { AuthCard } from './auth-card';
import { PasswordFormActions } from './password-form-actions';

/** SPEC §2 and §8: mail a reset link that comes back to /reset-password on this site. */
export default function ForgotPasswordScreen() {
  const [forgotPassword] = useForgotPasswordMutation();
  const run = useSubmit();

  const submit = async ({ email }: { email: string }) => {
    const address = email.trim();
    await run(() => forgotPassword({ email: address, redirectUrl: `${window.location.origin}/reset-password` }).unwrap(), {
      success: `Please visit your email ${address} to reset your password`,
      failure: 'Unable to send email',
    });
  };

  return (
    <AuthCard title="Forgot password" subtitle="Enter your e-mail and we will send you a link to choose a new password.">
      <Formik initialValues={{ email: '' }} validationSchema={forgotPasswordSchema} onSubmit={submit}>
        <Form noValidate aria-label="Forgot password">
          <FormTextField name="email" label="Email" type="email" autoComplete="email" />
          <PasswordFormActions submitLabel="Send reset link" />
        </Form>
      </Formik>
    </AuthCard>
  );
}

import * as yup from 'yup';
import { PASSWORD_REQUIRED_MESSAGE, USERNAME_REQUIRED_MESSAGE } from './auth-messages';
import { flag, text } from './text';

export { PASSWORD_REQUIRED_MESSAGE, USERNAME_REQUIRED_MESSAGE };

export const PASSWORD_MIN = 8;
export const PASSWORD_MIN_MESSAGE = 'Password must be atleast 8 characters long';
/** Long enough for any passphrase; argon2 need not read a megabyte. */
export const PASSWORD_MAX = 256;
/** A user name is at most this long when created or renamed; sign in reads more, so no older name is ever refused. */
export const USER_NAME_MAX = 64;
export const EMAIL_MAX = 254;

/** A password as typed: any printable characters, up to PASSWORD_MAX. */
export const passwordText = () => text(PASSWORD_MAX);

export const loginSchema = yup.object({
  userName: text(200).trim().required(USERNAME_REQUIRED_MESSAGE),
  password: passwordText().required(PASSWORD_REQUIRED_MESSAGE),
});
export type LoginInput = yup.InferType<typeof loginSchema>;

export const forgotPasswordSchema = yup.object({
  email: text(EMAIL_MAX, { tooLong: 'Invalid email' }).trim().required('Invalid email').email('Invalid email'),
  redirectUrl: text(2000).optional(),
});
export type ForgotPasswordInput = yup.InferType<typeof forgotPasswordSchema>;

export const resetPasswordSchema = yup.object({
  password: passwordText().required(PASSWORD_REQUIRED_MESSAGE).min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  confirmPassword: passwordText()
    .required(PASSWORD_REQUIRED_MESSAGE)
    .oneOf([yup.ref('password')], "Passwords don't match"),
});
/** The server receives only the password (SPEC §7). */
export const resetPasswordBodySchema = resetPasswordSchema.pick(['password']);

export const signUpSchema = yup.object({
  email: text(EMAIL_MAX, { tooLong: 'Invalid email' }).trim().required('Invalid email').email('Invalid email'),
  password: passwordText().required(PASSWORD_REQUIRED_MESSAGE).min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  confirmPassword: passwordText()
    .required(PASSWORD_REQUIRED_MESSAGE)
    .oneOf([yup.ref('password')], "Passwords don't match"),
  terms: flag().oneOf([true], 'Please accept the terms and conditions'),
});

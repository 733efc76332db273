import * as yup from 'yup';
import { PASSWORD_REQUIRED_MESSAGE, USERNAME_REQUIRED_MESSAGE } from './auth-messages';

export { PASSWORD_REQUIRED_MESSAGE, USERNAME_REQUIRED_MESSAGE };

export const PASSWORD_MIN = 8;
export const PASSWORD_MIN_MESSAGE = 'Password must be atleast 8 characters long';

export const loginSchema = yup.object({
  userName: yup.string().trim().required(USERNAME_REQUIRED_MESSAGE),
  password: yup.string().required(PASSWORD_REQUIRED_MESSAGE),
});
export type LoginInput = yup.InferType<typeof loginSchema>;

export const refreshTokenSchema = yup.object({
  token: yup.string().required('No refresh token available'),
});

export const forgotPasswordSchema = yup.object({
  email: yup.string().trim().required('Invalid email').email('Invalid email'),
  redirectUrl: yup.string().optional(),
});
export type ForgotPasswordInput = yup.InferType<typeof forgotPasswordSchema>;

export const resetPasswordSchema = yup.object({
  password: yup.string().required(PASSWORD_REQUIRED_MESSAGE).min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  confirmPassword: yup
    .string()
    .required(PASSWORD_REQUIRED_MESSAGE)
    .oneOf([yup.ref('password')], "Passwords don't match"),
});
/** The server receives only the password (SPEC §7). */
export const resetPasswordBodySchema = resetPasswordSchema.pick(['password']);

export const signUpSchema = yup.object({
  email: yup.string().trim().required('Invalid email').email('Invalid email'),
  password: yup.string().required(PASSWORD_REQUIRED_MESSAGE).min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  confirmPassword: yup
    .string()
    .required(PASSWORD_REQUIRED_MESSAGE)
    .oneOf([yup.ref('password')], "Passwords don't match"),
  terms: yup.boolean().oneOf([true], 'Please accept the terms and conditions'),
});

import * as yup from 'yup';
import { EMAIL_MAX, PASSWORD_MIN, PASSWORD_MIN_MESSAGE, passwordText, USER_NAME_MAX } from './auth';
import { CREATABLE_ROLES } from '../roles';
import { flag, text } from './text';

const userName = () => text(USER_NAME_MAX, { tooLong: 'Username is too long' }).trim().required('Please provide the userName');

/** SPEC §5 user rules; accounts are only created as agents or customer care (DESIGN §4). */
export const createUserSchema = yup.object({
  userName: userName(),
  password: passwordText().required('Please provide the password').min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  role: text(20).required('Please select the role').oneOf([...CREATABLE_ROLES], 'New accounts can only be agents or customer care'),
});
export type CreateUserInput = yup.InferType<typeof createUserSchema>;

/** Update: password optional (kept when empty), role stays agent, Afcon-only switch (DESIGN §3). */
export const updateUserSchema = yup.object({
  userName: userName(),
  password: passwordText()
    .transform((v: string | undefined) => (v === '' ? undefined : v))
    .optional()
    .min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  role: text(20).optional().oneOf(['agent', undefined], 'Only agents can be edited'),
  isAfcon: flag().optional(),
});
export type UpdateUserInput = yup.InferType<typeof updateUserSchema>;

export const profileSchema = yup.object({
  userName: userName(),
  // Absent leaves the stored email as it is; empty removes it.
  email: text(EMAIL_MAX, { tooLong: 'Invalid email' }).trim().optional().email('Invalid email'),
  myPassword: passwordText().required('Please provide the your password').min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  password: passwordText()
    .transform((v: string | undefined) => (v === '' ? undefined : v))
    .optional()
    .min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
});
export type ProfileInput = yup.InferType<typeof profileSchema>;

/** Disabling or enabling an account: `{ disabled }` alone is the whole request. */
export const userStatusSchema = yup.object({
  disabled: flag().required('Please say whether the account is disabled'),
});
export type UserStatusInput = yup.InferType<typeof userStatusSchema>;

/** `PATCH /v1/users/{id}` as documented: an edit of an agent, or `{ disabled }` alone for any account. */
export const editUserRequestSchema = updateUserSchema.shape({
  userName: userName().optional(),
  disabled: flag().optional(),
});

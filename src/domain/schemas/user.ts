import * as yup from 'yup';
import { PASSWORD_MIN, PASSWORD_MIN_MESSAGE } from './auth';

/** SPEC §5 user rules; accounts are only created as agents (DESIGN §4). */
export const createUserSchema = yup.object({
  userName: yup.string().trim().required('Please provide the userName').max(64, 'Username is too long'),
  password: yup.string().required('Please provide the password').min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  role: yup.string().required('Please select the role').oneOf(['agent'], 'New accounts can only be agents'),
});
export type CreateUserInput = yup.InferType<typeof createUserSchema>;

/** Update: password optional (kept when empty), role stays agent, Afcon-only switch (DESIGN §3). */
export const updateUserSchema = yup.object({
  userName: yup.string().trim().required('Please provide the userName').max(64, 'Username is too long'),
  password: yup
    .string()
    .transform((v: string | undefined) => (v === '' ? undefined : v))
    .optional()
    .min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  role: yup.string().optional().oneOf(['agent', undefined], 'Only agents can be edited'),
  isAfcon: yup.boolean().optional(),
});
export type UpdateUserInput = yup.InferType<typeof updateUserSchema>;

export const profileSchema = yup.object({
  userName: yup.string().trim().required('Please provide the userName').max(64, 'Username is too long'),
  email: yup
    .string()
    .trim()
    .transform((v: string | undefined) => (v === '' ? undefined : v))
    .optional()
    .email('Invalid email'),
  myPassword: yup.string().required('Please provide the your password').min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
  password: yup
    .string()
    .transform((v: string | undefined) => (v === '' ? undefined : v))
    .optional()
    .min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE),
});
export type ProfileInput = yup.InferType<typeof profileSchema>;

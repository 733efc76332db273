/**
 * The sign-in messages, apart from the yup schemas that use them: the sign-in page shows
 * them without loading yup (see features/auth/sign-in-form.tsx).
 */
export const USERNAME_REQUIRED_MESSAGE = 'Please provide your username';
export const PASSWORD_REQUIRED_MESSAGE = 'Please provide your password';

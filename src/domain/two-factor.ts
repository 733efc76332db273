import * as yup from 'yup';
import { passwordText } from './schemas/auth';
import { text } from './schemas/text';

/**
 * Two-factor sign-in (RFC 6238 TOTP: SHA-1, 6 digits, 30 s), as the API and the screens share it.
 * Recovery codes are ten characters, shown in two groups of five ('k7m2p-x9q4d').
 */
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes one sign-in's second step takes before it ends. */
export const TWO_FACTOR_MAX_ATTEMPTS = 5;
export const CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';
const CODE_OR_RECOVERY_MESSAGE = 'Enter the 6-digit code or a recovery code';

/** A recovery code as typed: case, spaces and dashes do not matter. */
export const normalizeRecoveryCode = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

const code = () => text(20).trim().matches(/^\d{6}$/, { message: CODE_MESSAGE, excludeEmptyString: true });
const recoveryCode = () => text(40).trim();
/** A code, or else a recovery code: one of the two is required. */
const codeOrRecovery = {
  code: code().when('recoveryCode', { is: (value: unknown) => !value, then: (schema) => schema.required(CODE_OR_RECOVERY_MESSAGE) }),
  recoveryCode: recoveryCode().optional(),
};

export const twoFactorEnableSchema = yup.object({ code: code().required(CODE_MESSAGE) });
export type TwoFactorEnableInput = yup.InferType<typeof twoFactorEnableSchema>;

export const twoFactorVerifySchema = yup.object({ challenge: text(200).required('Please sign in again'), ...codeOrRecovery });
export type TwoFactorVerifyInput = yup.InferType<typeof twoFactorVerifySchema>;

export const twoFactorDisableSchema = yup.object({ password: passwordText().required('Please provide your password'), ...codeOrRecovery });
export type TwoFactorDisableInput = yup.InferType<typeof twoFactorDisableSchema>;

/** What `POST /v1/auth/2fa/setup` answers: the secret to type, and the otpauth URL a QR code carries. */
export interface TwoFactorSetup {
  secret: string;
  otpauthUrl: string;
}

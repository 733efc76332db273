import { joinedErrorMessages, type ApiErrorInfo } from '../../api/api-error';

/**
 * SPEC §8 user create/update: 401 is quiet (null), 500 shows the joined messages, otherwise the
 * first error text or the fallback. Our 409 'Username X already taken' arrives as that first text.
 */
export function userErrorText(info: ApiErrorInfo, fallback = 'Unable to create a user account'): string | null {
  if (info.status === 401) return null;
  if (info.status === 500) return joinedErrorMessages(info) || fallback;
  return info.errors[0]?.message || info.message || fallback;
}

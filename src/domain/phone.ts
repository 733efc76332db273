/** SPEC §5/§9: 12 characters, format 2567xxxxxxxx. */
export const PHONE_PATTERN = /^2567\d{8}$/;
export const PHONE_FORMAT_MESSAGE = 'Phone number must be in this format (256750461xxx)';

/** What a search by phone number takes, in any form a person types it: an optional +, 6 to 20 digits, spaces or dashes. */
export const SEARCH_PHONE_PATTERN = /^\+?[\d\s-]{6,20}$/;
export const INVALID_PHONE_MESSAGE = 'Invalid phone number';

/**
 * The one form every phone number takes in the API (USSD, search, SMS, rankings, vote caps):
 * +2567xx, 002567xx, 2567xx, 07xx and 7xx are all 2567xxxxxxxx. Other numbers keep their digits,
 * without an international '00' prefix.
 */
export function normalizePhoneNumber(input: string): string {
  const digits = input.replace(/[^\d]/g, '').replace(/^00/, '');
  if (digits.startsWith('256')) return digits;
  if (digits.startsWith('0') && digits.length === 10) return `256${digits.slice(1)}`;
  if (digits.length === 9 && digits.startsWith('7')) return `256${digits}`;
  return digits;
}

/** A customer's number once normalized: 9 to 15 digits (E.164's longest), so a page is never opened for '123456'. */
export function isCustomerNumber(input: string): boolean {
  const digits = normalizePhoneNumber(input);
  return digits.length >= 9 && digits.length <= 15;
}

import type { SmsProvider } from '../../server/src/providers/sms';

/**
 * Phones the web tests' SMS gateway cannot reach the first time (for 'Resend ticket'): the
 * first SMS to a number starting with this prefix fails, the next ones go through. No other
 * helper makes such numbers (uniquePhoneNumber starts 2567, the campaign votes 25639).
 */
export const UNREACHABLE_PREFIX = '25638';

/** A number whose first ticket SMS fails, so its call offers 'Resend ticket'. */
export function unreachablePhoneNumber(): string {
  return `${UNREACHABLE_PREFIX}${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
}

/** The SMS gateway is an outside system: wraps the local provider to fail those numbers' first SMS. */
export function firstSmsFailsForUnreachable(provider: SmsProvider): SmsProvider {
  const failedOnce = new Set<string>();
  return {
    name: provider.name,
    async send(sms) {
      if (sms.phoneNumber.startsWith(UNREACHABLE_PREFIX) && !failedOnce.has(sms.phoneNumber)) {
        failedOnce.add(sms.phoneNumber);
        return { status: 'failed', providerRef: null, failureReason: 'Handset unreachable' };
      }
      return provider.send(sms);
    },
  };
}

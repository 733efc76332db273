import { gsm7Length, isGsm7 } from '../../src/domain/sms-segments';
import { USSD_MAX_LENGTH } from '../../src/domain/ussd-text';

/** The tests' check of every reply: it can go back to the handset as it is, GSM-7 only and at most 182 units (DESIGN §6). */
export function isUssdReply(reply: string): boolean {
  return isGsm7(reply) && gsm7Length(reply) <= USSD_MAX_LENGTH;
}

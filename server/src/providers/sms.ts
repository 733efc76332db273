export interface OutgoingSms {
  phoneNumber: string;
  message: string;
}

export interface SmsSendResult {
  status: 'queued' | 'sent' | 'failed';
  providerRef: string | null;
  failureReason?: string;
}

/**
 * Outbound SMS. The local provider only accepts (the row in sms_messages is the outbox);
 * Africa's Talking is selected by SMS_PROVIDER=africastalking.
 */
export interface SmsProvider {
  readonly name: string;
  send(sms: OutgoingSms): Promise<SmsSendResult>;
}

export interface LocalSmsOptions {
  /**
   * The share of messages refused (SMS_LOCAL_FAIL_RATE, 0 to 1, default 0), so 'Resend ticket' can
   * be shown: every (1 / failRate)-th message fails, counted, not drawn, so a demo or a test sees
   * one for certain. The same message to the same number right after its refusal goes through (the
   * handset is back), so a resend is never refused by this rule.
   */
  failRate?: number;
}

/** Refused messages remembered for their resend; the oldest are forgotten past this many. */
const REMEMBERED_REFUSALS = 10_000;

export function localSmsProvider(options: LocalSmsOptions = {}): SmsProvider {
  const failRate = options.failRate ?? 0;
  let counter = 0;
  const refused = new Set<string>();
  return {
    name: 'local',
    async send(sms) {
      counter += 1;
      const providerRef = `local-${Date.now().toString(36)}-${counter}`;
      const key = `${sms.phoneNumber}\n${sms.message}`;
      if (refused.delete(key)) return { status: 'sent', providerRef };
      if (failRate > 0 && Math.floor(counter * failRate) > Math.floor((counter - 1) * failRate)) {
        refused.add(key);
        if (refused.size > REMEMBERED_REFUSALS) refused.delete(refused.values().next().value as string);
        return { status: 'failed', providerRef, failureReason: 'Handset unreachable (local SMS provider)' };
      }
      return { status: 'sent', providerRef };
    },
  };
}

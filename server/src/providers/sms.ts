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

export function localSmsProvider(): SmsProvider {
  let counter = 0;
  return {
    name: 'local',
    async send() {
      counter += 1;
      return { status: 'sent', providerRef: `local-${Date.now().toString(36)}-${counter}` };
    },
  };
}

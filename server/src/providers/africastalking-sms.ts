import { localSmsProvider, type SmsProvider, type SmsSendResult } from './sms';

export interface AfricasTalkingOptions {
  username: string;
  apiKey: string;
  /** An approved sender id or short code; the account default when unset. */
  senderId?: string;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Overrides the endpoint (the sandbox is chosen from the username 'sandbox'). */
  endpoint?: string;
}

interface AtRecipient {
  statusCode?: number;
  status?: string;
  messageId?: string;
  number?: string;
}

interface AtResponse {
  SMSMessageData?: { Message?: string; Recipients?: AtRecipient[] };
}

const LIVE_ENDPOINT = 'https://api.africastalking.com/version1/messaging';
const SANDBOX_ENDPOINT = 'https://api.sandbox.africastalking.com/version1/messaging';
/** 100 Processed, 101 Sent, 102 Queued; everything else is a refusal. */
const ACCEPTED_CODES = new Set([100, 101, 102]);

/** Africa's Talking bulk SMS API, one recipient per call. */
export function africasTalkingSmsProvider(options: AfricasTalkingOptions): SmsProvider {
  const doFetch = options.fetch ?? fetch;
  const endpoint = options.endpoint ?? (options.username === 'sandbox' ? SANDBOX_ENDPOINT : LIVE_ENDPOINT);
  return {
    name: 'africastalking',
    async send({ phoneNumber, message }): Promise<SmsSendResult> {
      const form = new URLSearchParams({ username: options.username, to: `+${phoneNumber.replace(/^\+/, '')}`, message });
      if (options.senderId) form.set('from', options.senderId);
      let response: Response;
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { apiKey: options.apiKey, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        return { status: 'failed', providerRef: null, failureReason: `Gateway unreachable: ${(error as Error).message}` };
      }
      const text = await response.text();
      if (!response.ok) return { status: 'failed', providerRef: null, failureReason: `Gateway answered ${response.status}: ${text.slice(0, 200)}` };
      let body: AtResponse;
      try {
        body = JSON.parse(text) as AtResponse;
      } catch {
        return { status: 'failed', providerRef: null, failureReason: `Unreadable gateway answer: ${text.slice(0, 200)}` };
      }
      const recipient = body.SMSMessageData?.Recipients?.[0];
      if (!recipient) return { status: 'failed', providerRef: null, failureReason: body.SMSMessageData?.Message ?? 'No recipient accepted' };
      const providerRef = recipient.messageId && recipient.messageId !== 'None' ? recipient.messageId : null;
      if (recipient.statusCode !== undefined && ACCEPTED_CODES.has(recipient.statusCode)) return { status: 'sent', providerRef };
      return { status: 'failed', providerRef, failureReason: recipient.status ?? `Status code ${recipient.statusCode}` };
    },
  };
}

/** SMS_PROVIDER's choice with what it needs (config.ts reads them from the environment). */
export type SmsSettings = { kind: 'local'; failRate: number } | { kind: 'africastalking'; username: string; apiKey: string; senderId?: string };

/** The SMS provider the settings choose: local (the outbox only), or Africa's Talking's real gateway. */
export function smsProviderFor(settings: SmsSettings, fetchImpl?: typeof fetch): SmsProvider {
  if (settings.kind === 'local') return localSmsProvider({ failRate: settings.failRate });
  return africasTalkingSmsProvider({ username: settings.username, apiKey: settings.apiKey, senderId: settings.senderId, fetch: fetchImpl });
}

/** Delivery-report status words of Africa's Talking, as our SMS status. */
export function deliveryStatusOf(status: string): 'sent' | 'delivered' | 'failed' | undefined {
  switch (status.toLowerCase()) {
    case 'success':
      return 'delivered';
    case 'failed':
    case 'rejected':
    case 'expired':
    case 'aborted':
      return 'failed';
    case 'sent':
    case 'submitted':
    case 'buffered':
      return 'sent';
    default:
      return undefined;
  }
}

import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
}

/** Outbound mail. The local provider records to the database; SMTP is selected by MAIL_PROVIDER. */
export interface MailProvider {
  send(message: MailMessage): Promise<void>;
}

export function localMailProvider(db: Db): MailProvider {
  return {
    async send(message) {
      await db.insert(mailOutbox).values(message);
    },
  };
}

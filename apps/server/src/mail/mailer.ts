import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Sends over SMTP when SMTP_URL is set; otherwise stores the mail in the database outbox. */
  send(message: MailMessage): Promise<void>;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, db: Db): Mailer {
  if (config.smtpUrl) {
    const transporter = nodemailer.createTransport(config.smtpUrl);
    return {
      async send({ to, subject, text, html }) {
        await transporter.sendMail({ from: config.mailFrom, to, subject, text, html });
      },
    };
  }
  return {
    async send({ to, subject, text, html }) {
      await db.query(
        'insert into mail_outbox (recipient, subject, text_body, html_body) values ($1, $2, $3, $4)',
        [to, subject, text, html ?? null],
      );
    },
  };
}

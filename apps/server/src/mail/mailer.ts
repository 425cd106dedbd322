import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { JobRunner } from '../jobs/runner.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

declare module '../jobs/runner.ts' {
  interface JobKinds {
    'mail.send': MailMessage;
  }
}

export interface Mailer {
  /**
   * Queues the mail; the jobs runner delivers it (over SMTP when SMTP_URL is set, otherwise into the database
   * outbox), retrying with backoff. With `tx` the mail is queued inside the caller's transaction: it goes out only
   * if that transaction commits. The request never waits for the mail server.
   */
  send(message: MailMessage, tx?: Queryable): Promise<void>;
}

/** Attempts at delivering one mail before it is kept as failed (about a day with the runner's backoff). */
export const MAIL_MAX_ATTEMPTS = 12;

/** Delivers one mail now: over SMTP when SMTP_URL is set; otherwise into the database outbox. */
function createTransport(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, db: Db) {
  if (config.smtpUrl) {
    const transporter = nodemailer.createTransport(config.smtpUrl);
    return async ({ to, subject, text, html }: MailMessage) => {
      await transporter.sendMail({ from: config.mailFrom, to, subject, text, html });
    };
  }
  return async ({ to, subject, text, html }: MailMessage) => {
    await db.query(
      'insert into mail_outbox (recipient, subject, text_body, html_body) values ($1, $2, $3, $4)',
      [to, subject, text, html ?? null],
    );
  };
}

/**
 * The mailer, and the job kind delivering its mails (registered on `jobs` here, once per runner). Delivery is at
 * least once: an instance stopping between handing the mail over and recording it may send it again.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, db: Db, jobs: JobRunner): Mailer {
  const deliver = createTransport(config, db);
  jobs.define('mail.send', {
    maxAttempts: MAIL_MAX_ATTEMPTS,
    handler: async ({ payload }) => deliver(payload),
  });
  return {
    async send(message, tx) {
      const { to, subject, text, html } = message;
      await jobs.enqueue('mail.send', { to, subject, text, ...(html === undefined ? {} : { html }) }, { tx });
    },
  };
}

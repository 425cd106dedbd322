import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { FileStore } from '../files/files.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { DEFAULT_MAIL_BRAND, renderMail, type MailBrand, type MailContent } from './layout.ts';

/**
 * A file sent with a mail, by reference to the files store: the queued job stays small, and what is mailed is the
 * document the store keeps.
 */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  fileUuid: string;
  accountUuid: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** What renderMail rendered the HTML from: the mailer renders it again in the configured brand. */
  layout?: MailContent;
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

/**
 * The attachments' bytes from the files store. A file that is gone fails the delivery (it is retried, then kept as
 * failed) rather than sending the mail without the document it announces.
 */
async function attachmentContents(db: Db, files: FileStore | undefined, attachments: MailAttachment[]) {
  return Promise.all(
    attachments.map(async (attachment) => {
      const found = files ? await files.read(db, attachment.accountUuid, attachment.fileUuid) : null;
      if (!found) throw new Error(`attachment ${attachment.fileUuid} is not in the files store`);
      return { filename: attachment.fileName, contentType: attachment.contentType, content: found.content };
    }),
  );
}

/** Delivers one mail now: over SMTP when SMTP_URL is set; otherwise into the database outbox. */
function createTransport(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, db: Db, files?: FileStore) {
  const { smtpUrl } = config;
  if (smtpUrl) {
    // nodemailer loads with the first mail sent, not at the server's start (decision 253).
    let transporter: Promise<Transporter> | undefined;
    return async ({ to, subject, text, html, attachments = [] }: MailMessage) => {
      transporter ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(smtpUrl));
      await (
        await transporter
      ).sendMail({
        from: config.mailFrom,
        to,
        subject,
        text,
        html,
        attachments: await attachmentContents(db, files, attachments),
      });
    };
  }
  return async ({ to, subject, text, html, attachments = [] }: MailMessage) => {
    // The outbox keeps the references; reading them proves the files are there, as sending them would.
    await attachmentContents(db, files, attachments);
    await db.query(
      `insert into mail_outbox (recipient, subject, text_body, html_body, attachments)
       values ($1, $2, $3, $4, $5::jsonb)`,
      [to, subject, text, html ?? null, attachments.length ? JSON.stringify(attachments) : null],
    );
  };
}

/** The configured brand as the mails show it: the colour, and a PNG logo by its address (mail programs show no SVG). */
function mailBrand(config: Partial<Pick<Config, 'brand' | 'publicUrl'>>): MailBrand {
  if (!config.brand) return DEFAULT_MAIL_BRAND;
  const { color, logo } = config.brand;
  const png = logo?.contentType === 'image/png' && config.publicUrl;
  return { color, logoUrl: png ? `${config.publicUrl}${logo.path}` : null };
}

/**
 * The mailer, and the job kind delivering its mails (registered on `jobs` here, once per runner). Delivery is at
 * least once: an instance stopping between handing the mail over and recording it may send it again. A mail from
 * renderMail goes out in the configured brand (colour and logo).
 */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom'> & Partial<Pick<Config, 'brand' | 'publicUrl'>>,
  db: Db,
  jobs: JobRunner,
  files?: FileStore,
): Mailer {
  const deliver = createTransport(config, db, files);
  const brand = mailBrand(config);
  jobs.define('mail.send', {
    maxAttempts: MAIL_MAX_ATTEMPTS,
    handler: async ({ payload }) => deliver(payload),
  });
  return {
    async send(message, tx) {
      const { to, subject, text, attachments, layout } = message;
      const html = layout ? renderMail(layout, brand).html : message.html;
      await jobs.enqueue(
        'mail.send',
        {
          to,
          subject,
          text,
          ...(html === undefined ? {} : { html }),
          ...(attachments?.length ? { attachments } : {}),
        },
        { tx },
      );
    },
  };
}

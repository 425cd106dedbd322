import crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createFileStore, type FileStore } from '../files/files.ts';
import { startMailbox } from '../test/idp.ts';
import { JobRunner } from '../jobs/runner.ts';
import { createMailer, registerDevMail } from './index.ts';

let db: Db;
let jobs: JobRunner;

beforeAll(async () => {
  db = await openDb('memory://');
  await migrate(db);
  jobs = new JobRunner(db);
});

afterAll(async () => {
  await db?.close();
});

describe('mail without SMTP', () => {
  let mailer: ReturnType<typeof createMailer>;
  /** The outbox mailer; its mails are delivered by the runner, and each send waits until they were. */
  const outbox = () => {
    mailer ??= createMailer({ smtpUrl: null, mailFrom: 'Portal <no-reply@localhost>' }, db, jobs);
    return {
      async send(message: Parameters<typeof mailer.send>[0]) {
        await mailer.send(message);
        await jobs.drain();
      },
    };
  };

  it('keeps mails in the outbox and lists them at /dev/mail with clickable links', async () => {
    const mailer = outbox();
    await mailer.send({
      to: 'a@example.com',
      subject: 'First <b>',
      text: 'Open http://localhost:8080/x?key=1&y=2 now',
    });
    await mailer.send({ to: 'b@example.com', subject: 'Second', text: 'Hello', html: '<p>Hello</p>' });

    const { rows } = await db.query<{ count: number }>('select count(*)::int as count from mail_outbox');
    expect(rows[0]!.count).toBe(2);

    const app = Fastify();
    await registerDevMail(app, { db });
    const page = await app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<a href="http://localhost:8080/x?key=1&amp;y=2">');
    expect(page.body).toContain('First &lt;b&gt;');
    expect(page.body.indexOf('Second')).toBeLessThan(page.body.indexOf('First'));

    const json = await app.inject({ method: 'GET', url: '/dev/mail.json?to=A@example.com' });
    const { data } = json.json<{ data: { to: string; subject: string; text: string }[] }>();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ to: 'a@example.com', subject: 'First <b>' });
    await app.close();
  });

  it('queues a mail inside the caller’s transaction: it goes out only if that commits', async () => {
    outbox();
    const count = async () =>
      (await db.query<{ count: number }>('select count(*)::int as count from mail_outbox')).rows[0]!.count;
    const before = await count();
    const message = { to: 'tx@example.com', subject: 'In a transaction', text: 'Hello' };
    await db
      .transaction(async (tx) => {
        await mailer.send(message, tx);
        throw new Error('the change fails');
      })
      .catch(() => undefined);
    await jobs.drain();
    expect(await count()).toBe(before);
    await db.transaction((tx) => mailer.send(message, tx));
    // Queued, not yet delivered: the runner delivers it.
    expect(await count()).toBe(before);
    await jobs.drain();
    expect(await count()).toBe(before + 1);
  });

  it('answers only to clients on this machine: everyone else, also behind a trusted proxy, gets 404', async () => {
    await outbox().send({
      to: 'victim@example.com',
      subject: 'Reset',
      text: 'http://localhost/reset?key=secret',
    });
    const app = Fastify({ trustProxy: '127.0.0.1' });
    await registerDevMail(app, { db });
    for (const url of [
      '/dev/mail',
      '/dev/mail.json',
      '/dev/mail.json?to=victim@example.com',
      '/dev/mail.css',
    ]) {
      for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1']) {
        const own = await app.inject({ method: 'GET', url, remoteAddress });
        expect(own.statusCode, `${url} from ${remoteAddress}`).toBe(200);
      }
      for (const remoteAddress of ['203.0.113.7', '10.0.0.1', '::ffff:192.0.2.1']) {
        for (const accept of ['*/*', 'text/html']) {
          const foreign = await app.inject({ method: 'GET', url, remoteAddress, headers: { accept } });
          expect(foreign.statusCode, `${url} from ${remoteAddress}`).toBe(404);
          expect(foreign.body).not.toContain('secret');
        }
      }
      // Through the local proxy, the client's own address counts, not the proxy's.
      const proxied = await app.inject({
        method: 'GET',
        url,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(proxied.statusCode, `${url} through the proxy`).toBe(404);
    }
    await app.close();
  });
});

describe('mail attachments', () => {
  /** A stored PDF of a new account (the files store keeps its bytes in the database). */
  async function storedPdf(files: FileStore) {
    const accountUuid = crypto.randomUUID();
    await db.query(`insert into accounts (uuid, name, country) values ($1, 'Anhang AG', 'CH')`, [
      accountUuid,
    ]);
    const content = Buffer.from('%PDF-1.7\n% an invoice\n');
    const file = await files.put(db, {
      accountUuid,
      purpose: 'invoice-pdf',
      contentType: 'application/pdf',
      content,
      fileName: 'Rechnung-2026-000001.pdf',
      createdBy: null,
    });
    return {
      content,
      attachment: {
        fileName: file.fileName,
        contentType: 'application/pdf',
        fileUuid: file.uuid,
        accountUuid,
      },
    };
  }

  /** A mail with a stored PDF attached, sent over SMTP (`smtpUrl`) or into the outbox, and delivered. */
  async function sendWithPdf(smtpUrl: string | null, to: string) {
    const files = createFileStore(null);
    const runner = new JobRunner(db);
    const mailer = createMailer({ smtpUrl, mailFrom: 'Portal <no-reply@localhost>' }, db, runner, files);
    const { content, attachment } = await storedPdf(files);
    await mailer.send({ to, subject: 'Invoice', text: 'Attached', attachments: [attachment] });
    await runner.drain();
    return { content, attachment, mailer, runner };
  }

  it('sends the file over SMTP, read from the files store when the mail goes out', async () => {
    const mailbox = await startMailbox();
    try {
      const { content } = await sendWithPdf(mailbox.url, 'smtp@example.com');
      const raw = mailbox.mails.find((mail) => mail.to.includes('smtp@example.com'))!.raw;
      expect(raw).toContain('Content-Type: application/pdf; name=Rechnung-2026-000001.pdf');
      expect(raw).toContain('Content-Disposition: attachment; filename=Rechnung-2026-000001.pdf');
      expect(raw.replace(/\r?\n/g, '')).toContain(content.toString('base64'));
    } finally {
      await mailbox.close();
    }
  });

  it('keeps the attachment names in the outbox and shows them at /dev/mail; a missing file fails the delivery', async () => {
    const { attachment, mailer, runner } = await sendWithPdf(null, 'outbox@example.com');
    const app = Fastify();
    await registerDevMail(app, { db });
    const json = await app.inject({ method: 'GET', url: '/dev/mail.json?to=outbox@example.com' });
    expect(json.json().data[0].attachments).toEqual(['Rechnung-2026-000001.pdf']);
    const page = await app.inject({ method: 'GET', url: '/dev/mail?to=outbox@example.com' });
    expect(page.body).toContain('Attached: Rechnung-2026-000001.pdf');
    await app.close();

    await mailer.send({
      to: 'missing@example.com',
      subject: 'Invoice',
      text: 'Attached',
      attachments: [{ ...attachment, fileUuid: crypto.randomUUID() }],
    });
    await runner.drain();
    const kept = await db.query('select 1 from mail_outbox where recipient = $1', ['missing@example.com']);
    expect(kept.rows).toHaveLength(0);
    const failed = await db.query<{ last_error: string }>(
      `select last_error from jobs where kind = 'mail.send' and payload->>'to' = 'missing@example.com'`,
    );
    expect(failed.rows[0]!.last_error).toContain('is not in the files store');
  });
});

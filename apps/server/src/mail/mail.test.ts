import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createMailer, registerDevMail } from './index.ts';

let db: Db;

beforeAll(async () => {
  db = await openDb('memory://');
  await migrate(db);
});

afterAll(async () => {
  await db?.close();
});

describe('mail without SMTP', () => {
  it('keeps mails in the outbox and lists them at /dev/mail with clickable links', async () => {
    const mailer = createMailer({ smtpUrl: null, mailFrom: 'Portal <no-reply@localhost>' }, db);
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
});

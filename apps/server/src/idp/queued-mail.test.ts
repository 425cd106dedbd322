import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DEMO_USERS } from '../demo/users.ts';
import type { Db } from '../db/client.ts';
import { freshDatabase } from '../test/api.ts';
import { seedDemoIdentities } from '../demo/identities.ts';
import * as idp from '../test/idp.ts';

/**
 * A mail server that holds the first attempt until the test lets it go, then refuses it (a temporary error), and
 * takes the retry.
 */
let attempts = 0;
let releaseFirstAttempt!: () => void;
const firstAttemptHeld = new Promise<void>((resolve) => (releaseFirstAttempt = resolve));
let mailbox: idp.Mailbox;
let db: Db;
let drop: () => Promise<void>;
let server: idp.TestIdp;

beforeAll(async () => {
  ({ db, drop } = await freshDatabase('pglite'));
  await seedDemoIdentities(db);
  mailbox = await idp.startMailbox({
    refuse: async (attempt) => {
      attempts = attempt;
      if (attempt > 1) return undefined;
      await firstAttemptHeld;
      return Object.assign(new Error('Try again later'), { responseCode: 451 });
    },
  });
  server = await idp.startIdp(db, { env: { SMTP_URL: mailbox.url }, jobs: { backoffMs: 50, pollMs: 20 } });
});

afterAll(async () => {
  releaseFirstAttempt();
  await server?.app.close();
  await mailbox?.close();
  await drop?.();
});

it('answers "forgot password" without waiting for a slow, failing mail server; the mail is retried', async () => {
  const jar = new idp.CookieJar();
  const loginHtml = await idp.openLoginPage(server, jar, { kc_locale: 'en' });
  const forgotHref = /id="kc-forgot-password" href="([^"]+)"/.exec(loginHtml)![1]!.replace(/&amp;/g, '&');
  const forgotHtml = await (await idp.request(new URL(forgotHref, server.base).href, jar)).text();
  const action = new URL(idp.formAction(forgotHtml, 'kc-reset-password-form'), server.base).href;

  // The answer comes while the mail server still holds the mail: a request that waited for it would never end.
  const sent = await idp.request(action, jar, { form: { username: DEMO_USERS.owner.email } });
  expect(sent.status).toBe(200);
  expect(await sent.text()).toContain('If a login with this email address exists');
  expect(mailbox.mails).toEqual([]);

  // The runner delivers it in the background: the first attempt is refused, the retry goes through.
  releaseFirstAttempt();
  await vi.waitFor(
    async () => {
      await server.jobs.drain();
      expect(mailbox.mails.map((mail) => mail.to)).toEqual([[DEMO_USERS.owner.email]]);
    },
    { timeout: 10_000, interval: 20 },
  );
  expect(attempts).toBe(2);
  const { rows } = await db.query('select 1 from jobs where kind = $1', ['mail.send']);
  expect(rows).toEqual([]);
});

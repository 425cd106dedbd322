import { decodeJwt } from 'jose';
import { generateSync } from 'otplib';
import { beforeAll, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { createSecrets } from '../secrets/secrets.ts';
import { answerSecondFactor, CookieJar, describeIdp, signIn, signInToSecondFactor } from '../test/idp.ts';
import { newRecoveryCodes, newTotpSecret, startTotp, TOTP_PERIOD, useTotpStep } from './totp.ts';

const owner = DEMO_USERS.owner;
const epoch = () => Math.floor(Date.now() / 1000);
/** The app's code `steps` steps from now. */
const codeOf = (secret: string, steps = 0) => generateSync({ secret, epoch: epoch() + steps * TOTP_PERIOD });
const failuresOf = async (db: Parameters<typeof startTotp>[0], email: string) => {
  const { rows } = await db.query<{ failures: number }>(
    'select failures from idp_login_failures where key = $1',
    [`identity:${email}`],
  );
  return rows[0]?.failures ?? 0;
};

describeIdp('two-factor sign-in with an authenticator app', (ctx) => {
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    // The demo owner turns the app on (as the API's enrolment does), confirmed with a step an hour ago.
    secret = newTotpSecret();
    await startTotp(ctx.db, createSecrets(ctx.idp.config.secrets.keys), owner.id, secret);
    await useTotpStep(ctx.db, owner.id, Math.floor(epoch() / TOTP_PERIOD) - 120, { confirm: true });
    recoveryCodes = await newRecoveryCodes(ctx.db, owner.id);
  });

  it('asks for the code after the password, with a field for one-time codes', async () => {
    const page = await signInToSecondFactor(ctx.idp, new CookieJar(), owner.email, DEMO_PASSWORD);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Code aus der Authenticator-App');
    expect(page.html).toMatch(
      /<input id="otp" name="otp" type="text" autocomplete="one-time-code"[^>]*inputmode="numeric"/,
    );
    expect(page.html).toContain('id="kc-login"');
    expect(page.html).toMatch(/<details[^>]*id="kc-recovery"/);
    expect(page.html).toContain('name="recoveryCode"');
  });

  it('signs in with password and code (amr pwd, otp, mfa), and refuses the same code again', async () => {
    const code = codeOf(secret);
    const page = await signInToSecondFactor(ctx.idp, new CookieJar(), owner.email, DEMO_PASSWORD);
    const done = await answerSecondFactor(ctx.idp, new CookieJar(), page, 'kc-otp-login-form', {
      otp: code,
    }).catch(() => undefined);
    // Another browser (without the interaction's cookie) cannot answer for it.
    expect(done?.tokens).toBeUndefined();

    const jar = new CookieJar();
    const own = await signInToSecondFactor(ctx.idp, jar, owner.email, DEMO_PASSWORD);
    const signedIn = await answerSecondFactor(ctx.idp, jar, own, 'kc-otp-login-form', { otp: code });
    expect(signedIn.tokens?.status).toBe(200);
    expect(decodeJwt(signedIn.tokens!.body.id_token!).amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(decodeJwt(signedIn.tokens!.body.access_token!).amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(await failuresOf(ctx.db, owner.email)).toBe(0);

    // The same code, within its window, in a new sign-in: refused.
    const replayJar = new CookieJar();
    const replay = await signInToSecondFactor(ctx.idp, replayJar, owner.email, DEMO_PASSWORD);
    const refused = await answerSecondFactor(ctx.idp, replayJar, replay, 'kc-otp-login-form', { otp: code });
    expect(refused.status).toBe(401);
    expect(refused.tokens).toBeUndefined();
    expect(refused.html).toContain('Der Code ist falsch oder abgelaufen.');
    // A code of the next step (in the window) still works.
    const next = await answerSecondFactor(ctx.idp, replayJar, replay, 'kc-otp-login-form', {
      otp: codeOf(secret, 1),
    });
    expect(next.tokens?.status).toBe(200);
  });

  it('refuses a wrong code with the page again, in the page language', async () => {
    const jar = new CookieJar();
    const page = await signInToSecondFactor(ctx.idp, jar, owner.email, DEMO_PASSWORD);
    const wrong = await answerSecondFactor(ctx.idp, jar, page, 'kc-otp-login-form', { otp: '000000' });
    expect(wrong.status).toBe(401);
    // The person's sign-in history has the failed attempt.
    const { rows } = await ctx.db.query<{ outcome: string; method: string }>(
      `select outcome, method from idp_sign_ins where identity_id = $1 order by id desc limit 1`,
      [owner.id],
    );
    expect(rows[0]).toEqual({ outcome: 'second-factor-failed', method: 'totp' });
    expect(wrong.html).toContain('role="alert"');
    expect(wrong.html).toContain('aria-invalid="true"');
    await ctx.db.query('delete from idp_login_failures');
  });

  it('takes a recovery code once, and tells the owner by mail', async () => {
    const since = ctx.mailbox.mails.length;
    const jar = new CookieJar();
    const page = await signInToSecondFactor(ctx.idp, jar, owner.email, DEMO_PASSWORD);
    const used = await answerSecondFactor(ctx.idp, jar, page, 'kc-recovery-form', {
      recoveryCode: recoveryCodes[0]!.toUpperCase(),
    });
    expect(used.tokens?.status).toBe(200);
    expect(decodeJwt(used.tokens!.body.id_token!).amr).toEqual(['pwd', 'kba', 'mfa']);
    const mail = await ctx.mailbox.next(owner.email, since);
    expect(mail).toContain('Wiederherstellungscode verwendet');
    expect(mail).toContain('Noch übrig: 9.');

    const againJar = new CookieJar();
    const again = await signInToSecondFactor(ctx.idp, againJar, owner.email, DEMO_PASSWORD);
    const refused = await answerSecondFactor(ctx.idp, againJar, again, 'kc-recovery-form', {
      recoveryCode: recoveryCodes[0]!,
    });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain('Dieser Wiederherstellungscode ist falsch oder wurde schon verwendet.');
    // The recovery form stays open after its error.
    expect(refused.html).toMatch(/<details[^>]*id="kc-recovery" open>/);
    await ctx.db.query('delete from idp_login_failures');
  });

  it('counts wrong codes towards the lockout, and the right password does not reset them', async () => {
    const max = ctx.idp.config.idp.bruteForce.maxFailuresPerIdentity;
    const jar = new CookieJar();
    const page = await signInToSecondFactor(ctx.idp, jar, owner.email, DEMO_PASSWORD);
    for (let i = 0; i < max - 2; i += 1) {
      const wrong = await answerSecondFactor(ctx.idp, jar, page, 'kc-otp-login-form', { otp: '000000' });
      expect(wrong.status).toBe(401);
    }
    expect(await failuresOf(ctx.db, owner.email)).toBe(max - 2);

    // The right password again: the failures stay.
    const jar2 = new CookieJar();
    const page2 = await signInToSecondFactor(ctx.idp, jar2, owner.email, DEMO_PASSWORD);
    expect(page2.html).toContain('id="otp"');
    expect(await failuresOf(ctx.db, owner.email)).toBe(max - 2);

    const last = await answerSecondFactor(ctx.idp, jar2, page2, 'kc-otp-login-form', { otp: '000000' });
    expect(last.status).toBe(401);
    const locked = await answerSecondFactor(ctx.idp, jar2, page2, 'kc-otp-login-form', { otp: '000000' });
    expect(locked.status).toBe(429);
    expect(locked.html).toMatch(/Zu viele|versuchen Sie es/i);
    // Locked: even the right code is refused now, and so is the right password.
    const right = await answerSecondFactor(ctx.idp, jar2, page2, 'kc-otp-login-form', {
      otp: codeOf(secret, 1),
    });
    expect(right.status).toBe(429);
    await expect(signIn(ctx.idp, new CookieJar(), owner.email, DEMO_PASSWORD)).rejects.toThrow(/status 429/);
    await ctx.db.query('delete from idp_login_failures');
  });
});

import { expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { endIdentitySessions } from './adapter.ts';
import { changePassword } from './credentials.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('credentials changed', (ctx) => {
  it('ends every session and grant of the person: refresh tokens from before are refused', async () => {
    const user = DEMO_USERS.admin;
    const laptop = new idp.CookieJar();
    const phone = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const fromLaptop = await idp.signIn(ctx.idp, laptop, user.email, DEMO_PASSWORD);
    // Another person's sign-in is not touched.
    const other = await idp.signIn(ctx.idp, new idp.CookieJar(), DEMO_USERS.employee.email, DEMO_PASSWORD);

    await changePassword(ctx.db, user.id, 'A-new-and-long-Passphrase-2026');

    for (const tokens of [phone.tokens, fromLaptop.tokens]) {
      const refused = await idp.refresh(ctx.idp, tokens.body.refresh_token!);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
    }
    // The browser's SSO session is gone: it gets the login page, not a code.
    await expect(idp.expectSilentSignIn(ctx.idp, laptop)).rejects.toThrow();
    expect((await idp.refresh(ctx.idp, other.tokens.body.refresh_token!)).status).toBe(200);
    // The new password signs in again.
    const again = await idp.signIn(
      ctx.idp,
      new idp.CookieJar(),
      user.email,
      'A-new-and-long-Passphrase-2026',
    );
    expect(again.tokens.status).toBe(200);
  });
});

idp.describeIdp('one session ended', (ctx) => {
  it('revokes the refresh tokens of that session and spares the others', async () => {
    const user = DEMO_USERS.admin;
    const laptop = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const phone = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const sessionOf = (accessToken: string) =>
      JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
    const laptopSession = sessionOf(laptop.tokens.body.access_token!);
    expect(laptopSession).toBeTruthy();
    expect(sessionOf(phone.tokens.body.access_token!)).not.toBe(laptopSession);

    expect(
      await endIdentitySessions(ctx.db, user.id, { except: sessionOf(phone.tokens.body.access_token!) }),
    ).toBe(1);

    const refused = await idp.refresh(ctx.idp, laptop.tokens.body.refresh_token!);
    expect(refused.body.error).toBe('invalid_grant');
    expect((await idp.refresh(ctx.idp, phone.tokens.body.refresh_token!)).status).toBe(200);
  });
});

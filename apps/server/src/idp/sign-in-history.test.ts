import { expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('sign-in history', (ctx) => {
  it('records a wrong password and a sign-in of a known identity, and nothing for an unknown address', async () => {
    const { id, email } = DEMO_USERS.inhaber;
    const jar = new idp.CookieJar();
    const html = await idp.openLoginPage(ctx.idp, jar);
    const wrong = await idp.request(new URL(idp.formAction(html, 'kc-form-login'), ctx.idp.base).href, jar, {
      form: { username: email, password: 'wrong-password' },
    });
    expect(wrong.status).toBe(200);
    const unknown = await idp.openLoginPage(ctx.idp, jar);
    await idp.request(new URL(idp.formAction(unknown, 'kc-form-login'), ctx.idp.base).href, jar, {
      form: { username: 'nobody@example.org', password: 'wrong-password' },
    });
    await idp.signIn(ctx.idp, jar, email, DEMO_PASSWORD);

    const { rows } = await ctx.db.query<{ outcome: string; method: string }>(
      'select outcome, method from idp_sign_ins where identity_id = $1 order by id',
      [id],
    );
    expect(rows).toEqual([
      { outcome: 'wrong-password', method: 'password' },
      { outcome: 'success', method: 'password' },
    ]);
    const { rows: all } = await ctx.db.query('select count(*)::int as n from idp_sign_ins');
    expect(all).toEqual([{ n: 2 }]);
    // The first browser of an identity is remembered, without a mail.
    const { rows: browsers } = await ctx.db.query('select 1 from idp_known_browsers where identity_id = $1', [
      id,
    ]);
    expect(browsers).toHaveLength(1);
    expect(ctx.mailbox.mails.filter((mail) => mail.to.includes(email))).toEqual([]);
  });
});

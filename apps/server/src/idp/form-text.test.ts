import { expect, it } from 'vitest';
import * as idp from '../test/idp.ts';

idp.describeIdp('text the sign-in forms refuse', (ctx) => {
  it('a form with a control character gets a localised page, and nothing is stored', async () => {
    const jar = new idp.CookieJar();
    const html = await idp.openLoginPage(ctx.idp, jar, { kc_locale: 'en' });
    const action = new URL(idp.formAction(html, 'kc-form-login'), ctx.idp.base).href.replace(
      /\/login(\?|$)/,
      '/register$1',
    );
    const answer = await idp.request(action, jar, {
      form: {
        firstName: 'Nul\u0000l',
        lastName: 'Byte',
        email: 'nul@example.com',
        password: 'a-long-password',
        'password-confirm': 'a-long-password',
      },
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('characters that are not allowed');
    const { rows } = await ctx.db.query('select 1 from idp_identities where lower(email) = $1', [
      'nul@example.com',
    ]);
    expect(rows).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { redactUrl } from './app.ts';

describe('request log redaction', () => {
  it('hides secrets in the query and keeps the rest', () => {
    expect(redactUrl('/realms/portal/login-actions/reset?key=abc123&kc_locale=de')).toBe(
      '/realms/portal/login-actions/reset?key=%5Bredacted%5D&kc_locale=de',
    );
    expect(redactUrl('/realms/portal/protocol/openid-connect/logout?id_token_hint=eyJ.x.y')).not.toContain(
      'eyJ',
    );
    expect(redactUrl('/oauthcb?code=secret&state=s')).not.toMatch(/secret|=s\b/);
  });

  it('leaves URLs without a query alone', () => {
    expect(redactUrl('/api/users/v1/me')).toBe('/api/users/v1/me');
  });
});

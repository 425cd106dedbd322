import { describe, expect, it } from 'vitest';
import { describeApi } from '../../test/api.ts';

describeApi(
  'security',
  (api) => {
    describe('GET /users/v1/me/security', () => {
      it('tells the embedded service keeps the sign-in and that the demo owner has no second factor yet', async () => {
        const response = await api.request('GET', '/api/users/v1/me/security', { as: 'owner' });
        expect(response.statusCode).toBe(200);
        expect(response.json().data).toEqual({
          provider: 'embedded',
          accountConsoleUrl: null,
          totpEnabled: false,
          recoveryCodesLeft: 0,
          passkeyCount: 0,
          hasSecondFactor: false,
        });
      });

      it('needs a sign-in', async () => {
        const response = await api.request('GET', '/api/users/v1/me/security');
        expect(response.statusCode).toBe(401);
      });
    });
  },
  { embeddedIdp: true },
);

describeApi('security with an external Keycloak', (api) => {
  it("links to the realm's account console instead of the embedded forms", async () => {
    const response = await api.request('GET', '/api/users/v1/me/security', { as: 'owner' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      provider: 'external',
      accountConsoleUrl: 'http://idp.test/realms/portal/account',
    });
  });
});

import { DATA_EXPORT_REAUTH_SECONDS, REAUTHENTICATION_REQUIRED } from '@portal/contract';
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

  it('asks for a fresh sign-in instead of the password before exporting the own data (decision 231)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const asking = async (claims: Record<string, unknown>) =>
      api.request('POST', '/api/users/v1/me/data-export', {
        token: await api.token('employee', { claims }),
        body: {},
      });
    // A token that does not say when, or a sign-in older than five minutes, is sent to sign in again.
    for (const claims of [{ auth_time: undefined }, { auth_time: now - DATA_EXPORT_REAUTH_SECONDS - 30 }]) {
      const refused = await asking(claims);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe(REAUTHENTICATION_REQUIRED);
    }
    expect((await asking({ auth_time: now - 20 })).statusCode).toBe(202);
  });
});

import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type TestApi } from '../../test/api.ts';
import { TOTP_PERIOD } from '../../idp/totp.ts';

const BASE = '/api/users/v1/me/security';
/** The code of `secret` one step from now (in the window, and later than a code of the current step). */
const codeOf = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD });

async function enrol(api: TestApi, as: 'admin' | 'employee' | 'owner') {
  const started = await api.request('POST', `${BASE}/totp`, { as });
  expect(started.statusCode).toBe(201);
  const { secret } = started.json().data as { secret: string };
  const confirmed = await api.request('POST', `${BASE}/totp/confirm`, { as, body: { code: codeOf(secret) } });
  expect(confirmed.statusCode).toBe(200);
  return { secret, codes: confirmed.json().data.codes as string[] };
}

/** The stored recovery-code hashes of `identityId`, oldest first. */
async function storedHashes(api: TestApi, identityId: string): Promise<string[]> {
  const { rows } = await api.db.query<{ code_hash: string }>(
    'select code_hash from idp_recovery_codes where identity_id = $1 order by id',
    [identityId],
  );
  return rows.map((row) => row.code_hash);
}

/** Posts `password` to `path` as the demo admin. */
const withPassword = (api: TestApi, path: string, password: string) =>
  api.request('POST', `${BASE}${path}`, { as: 'admin', body: { password } });

describeApi(
  'two-factor with an authenticator app',
  (api) => {
    describe('enrolment', () => {
      it('answers a QR code and the secret, refuses a wrong first code, turns on with the right one', async () => {
        const started = await api.request('POST', `${BASE}/totp`, { as: 'owner' });
        expect(started.statusCode).toBe(201);
        expect(started.headers['cache-control']).toBe('no-store');
        const enrolment = started.json().data;
        expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
        expect(enrolment.qrSvg).toMatch(/^<svg[^>]*>/);
        expect(enrolment).toMatchObject({ issuer: api.config.productName, label: DEMO_USERS.owner.email });

        // Stored sealed, not yet counting as a second factor.
        const { rows } = await api.db.query<{ secret: string; confirmed_at: Date | null }>(
          'select secret, confirmed_at from idp_totp where identity_id = $1',
          [DEMO_USERS.owner.id],
        );
        expect(rows[0]!.secret).toMatch(/^enc:v1:/);
        expect(rows[0]!.secret).not.toContain(enrolment.secret);
        expect(rows[0]!.confirmed_at).toBeNull();
        let overview = (await api.request('GET', BASE, { as: 'owner' })).json().data;
        expect(overview).toMatchObject({ totpEnabled: false, hasSecondFactor: false });

        const wrongCode = String((Number(codeOf(enrolment.secret)) + 1) % 1_000_000).padStart(6, '0');
        const wrong = await api.request('POST', `${BASE}/totp/confirm`, {
          as: 'owner',
          body: { code: wrongCode },
        });
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().code).toBe('INVALID_CODE');

        const right = await api.request('POST', `${BASE}/totp/confirm`, {
          as: 'owner',
          body: { code: codeOf(enrolment.secret) },
        });
        expect(right.statusCode).toBe(200);
        const { codes } = right.json().data as { codes: string[] };
        expect(codes).toHaveLength(10);
        for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
        expect(new Set(codes).size).toBe(10);

        overview = (await api.request('GET', BASE, { as: 'owner' })).json().data;
        expect(overview).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10, hasSecondFactor: true });
        // The secret is never answered again: setting up once more is refused while the app is on.
        const again = await api.request('POST', `${BASE}/totp`, { as: 'owner' });
        expect(again.statusCode).toBe(409);
        expect(again.json().code).toBe('TOTP_ALREADY_ENABLED');

        const mails = await api.mailsTo(DEMO_USERS.owner.email);
        // Mails are delivered by the jobs runner, not necessarily in the order they were queued.
        expect(mails.map((mail) => mail.subject)).toContain(
          'Portal: Zwei-Faktor-Authentifizierung eingeschaltet',
        );
      });

      it('keeps only hashes of the recovery codes, and shows them once', async () => {
        const { codes } = await enrol(api, 'admin');
        const hashes = await storedHashes(api, DEMO_USERS.admin.id);
        expect(hashes).toHaveLength(10);
        const stored = hashes.join(' ');
        for (const code of codes) {
          expect(stored).not.toContain(code);
          expect(stored).not.toContain(code.replace('-', ''));
        }
        for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
        // Confirming again does not show them a second time.
        const again = await api.request('POST', `${BASE}/totp/confirm`, {
          as: 'admin',
          body: { code: '123456' },
        });
        expect(again.statusCode).toBe(409);
        expect(again.body).not.toContain(codes[0]);
      });

      it('refuses to confirm without a started enrolment', async () => {
        const response = await api.request('POST', `${BASE}/totp/confirm`, {
          as: 'employee',
          body: { code: '123456' },
        });
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe('TOTP_NOT_STARTED');
      });
    });

    describe('recovery codes and turning off', () => {
      it('regenerates the codes only with the current password', async () => {
        const wrong = await withPassword(api, '/recovery-codes', 'not-the-password');
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().details.fields).toEqual({ password: 'wrongPassword' });
        const before = await storedHashes(api, DEMO_USERS.admin.id);

        const right = await withPassword(api, '/recovery-codes', DEMO_PASSWORD);
        expect(right.statusCode).toBe(200);
        expect(right.json().data.codes).toHaveLength(10);
        const after = await storedHashes(api, DEMO_USERS.admin.id);
        expect(after).toHaveLength(10);
        expect(after).not.toEqual(before);
        const mails = await api.mailsTo(DEMO_USERS.admin.email);
        expect(mails.map((mail) => mail.subject)).toContain('Portal: Neue Wiederherstellungscodes');
      });

      it('turns off only with the current password, counting wrong ones towards the lockout', async () => {
        const wrong = await withPassword(api, '/totp/disable', 'not-the-password');
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().details.fields).toEqual({ password: 'wrongPassword' });
        const failures = await api.db.query<{ failures: number }>(
          'select failures from idp_login_failures where key = $1',
          [`identity:${DEMO_USERS.admin.email}`],
        );
        expect(failures.rows[0]!.failures).toBeGreaterThanOrEqual(1);
        expect((await api.request('GET', BASE, { as: 'admin' })).json().data.totpEnabled).toBe(true);

        const right = await withPassword(api, '/totp/disable', DEMO_PASSWORD);
        expect(right.statusCode).toBe(204);
        const overview = (await api.request('GET', BASE, { as: 'admin' })).json().data;
        expect(overview).toMatchObject({ totpEnabled: false, recoveryCodesLeft: 0, hasSecondFactor: false });
        const left = await api.db.query('select 1 from idp_recovery_codes where identity_id = $1', [
          DEMO_USERS.admin.id,
        ]);
        expect(left.rows).toHaveLength(0);
        const mails = await api.mailsTo(DEMO_USERS.admin.email);
        expect(mails.map((mail) => mail.subject)).toContain(
          'Portal: Zwei-Faktor-Authentifizierung ausgeschaltet',
        );
      });

      it('locks after too many wrong passwords (429)', async () => {
        await enrol(api, 'employee');
        const statuses: number[] = [];
        for (let i = 0; i < api.config.idp.bruteForce.maxFailuresPerIdentity + 1; i += 1) {
          const response = await api.request('POST', `${BASE}/totp/disable`, {
            as: 'employee',
            body: { password: `wrong-${i}` },
          });
          statuses.push(response.statusCode);
        }
        expect(statuses.at(-1)).toBe(429);
        const locked = await api.request('POST', `${BASE}/totp/disable`, {
          as: 'employee',
          body: { password: DEMO_PASSWORD },
        });
        expect(locked.statusCode).toBe(429);
        expect(locked.json().code).toBe('LOCKED');
      });

      it('answers 409 when no app is on', async () => {
        const response = await withPassword(api, '/recovery-codes', DEMO_PASSWORD);
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe('TOTP_NOT_ENABLED');
      });
    });
  },
  { embeddedIdp: true },
);

describeApi('two-factor with an external Keycloak', (api) => {
  it('answers 409 SIGN_IN_MANAGED_EXTERNALLY on every route', async () => {
    const calls = [
      api.request('POST', `${BASE}/totp`, { as: 'owner' }),
      api.request('POST', `${BASE}/totp/confirm`, { as: 'owner', body: { code: '123456' } }),
      api.request('POST', `${BASE}/totp/disable`, { as: 'owner', body: { password: DEMO_PASSWORD } }),
      api.request('POST', `${BASE}/recovery-codes`, { as: 'owner', body: { password: DEMO_PASSWORD } }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('SIGN_IN_MANAGED_EXTERNALLY');
    }
  });
});

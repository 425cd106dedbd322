import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../../demo/users.ts';
import { setPassword, verifyPassword } from '../../idp/identities.ts';
import { STRONG_PASSWORD } from '../../test/idp.ts';
import { describeApi, type TestApi } from '../../test/api.ts';

const PASSWORD = '/api/users/v1/me/security/password';
const EMAIL = '/api/users/v1/me/security/email';

/** Sign-in sessions of the identity as the provider stores them (uid → row), with one grant each. */
async function insertSessions(api: TestApi, identityId: string, uids: string[]) {
  for (const uid of uids) {
    const grantId = `grant-${uid}`;
    await api.db.query(
      `insert into idp_payloads (model, id, payload, uid, expires_at) values ('Session', $1, $2::jsonb, $3, now() + interval '1 hour')`,
      [
        `session-${uid}`,
        JSON.stringify({ accountId: identityId, uid, authorizations: { 'portal-web': { grantId } } }),
        uid,
      ],
    );
    await api.db.query(
      `insert into idp_payloads (model, id, payload, grant_id, expires_at) values ('RefreshToken', $1, '{}'::jsonb, $2, now() + interval '1 hour')`,
      [`refresh-${uid}`, grantId],
    );
  }
}

async function sessionUids(api: TestApi, identityId: string): Promise<string[]> {
  const { rows } = await api.db.query<{ uid: string }>(
    `select uid from idp_payloads where model = 'Session' and payload->>'accountId' = $1 order by uid`,
    [identityId],
  );
  return rows.map((row) => row.uid);
}

const signsIn = async (api: TestApi, email: string, password: string) =>
  (await verifyPassword(api.db, email, password)).valid;

describeApi(
  'security: password and email',
  (api) => {
    describe('POST /users/v1/me/security/password', () => {
      it('refuses a wrong current password on its field and changes nothing', async () => {
        const response = await api.request('POST', PASSWORD, {
          as: 'owner',
          body: { currentPassword: 'not-my-password', newPassword: STRONG_PASSWORD },
        });
        expect(response.statusCode).toBe(422);
        expect(response.json().details.fields).toEqual({ currentPassword: 'wrongPassword' });
        expect(await signsIn(api, DEMO_USERS.owner.email, DEMO_PASSWORD)).toBe(true);
        expect(await signsIn(api, DEMO_USERS.owner.email, STRONG_PASSWORD)).toBe(false);
      });

      it('refuses a weak new password and says why', async () => {
        for (const [newPassword, reason] of [
          ['kurz', 'tooShort'],
          ['qwertzuiopasdf', 'tooWeak.keyboard'],
        ]) {
          const response = await api.request('POST', PASSWORD, {
            as: 'owner',
            body: { currentPassword: DEMO_PASSWORD, newPassword },
          });
          expect(response.statusCode).toBe(422);
          expect(response.json().details.fields).toEqual({ newPassword: reason });
        }
        expect(await signsIn(api, DEMO_USERS.owner.email, DEMO_PASSWORD)).toBe(true);
      });

      it('refuses the current password as the new one, with its reason (issue 21 item 10)', async () => {
        const { id, email } = DEMO_USERS.inhaber;
        // A password the policy accepts, so only its being the current one can refuse it.
        await setPassword(api.db, id, STRONG_PASSWORD);
        const response = await api.request('POST', PASSWORD, {
          as: 'inhaber',
          body: { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD },
        });
        expect(response.statusCode).toBe(422);
        expect(response.json().details.fields).toEqual({ newPassword: 'sameAsCurrent' });
        expect(await api.mailsTo(email)).toEqual([]);
        await setPassword(api.db, id, DEMO_PASSWORD);
      });

      it('counts wrong current passwords towards the lockout of the identity', async () => {
        const threshold = api.config.idp.bruteForce.maxFailuresPerIdentity;
        const statuses: number[] = [];
        for (let i = 0; i < threshold; i++) {
          const response = await api.request('POST', PASSWORD, {
            as: 'admin',
            body: { currentPassword: `wrong-${i}`, newPassword: STRONG_PASSWORD },
          });
          statuses.push(response.statusCode);
        }
        expect(statuses).toEqual([...Array<number>(threshold - 1).fill(422), 429]);
        // Locked: even the right password is refused now, with the wait.
        const locked = await api.request('POST', PASSWORD, {
          as: 'admin',
          body: { currentPassword: DEMO_PASSWORD, newPassword: STRONG_PASSWORD },
        });
        expect(locked.statusCode).toBe(429);
        expect(locked.json().details.fields).toMatchObject({ currentPassword: 'locked' });
        expect(Number(locked.json().details.fields.retryAfter)).toBeGreaterThan(0);
        expect(await signsIn(api, DEMO_USERS.admin.email, DEMO_PASSWORD)).toBe(true);
      });

      it('sets the password, ends the other sessions but not this one, and mails the address', async () => {
        const { id, email } = DEMO_USERS.employee;
        await insertSessions(api, id, ['s-this', 's-other-1', 's-other-2']);
        const token = await api.token('employee', { claims: { sid: 's-this' } });
        const response = await api.request('POST', PASSWORD, {
          token,
          headers: {
            'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36',
          },
          body: { currentPassword: DEMO_PASSWORD, newPassword: STRONG_PASSWORD },
        });
        expect(response.statusCode).toBe(204);
        expect(await signsIn(api, email, STRONG_PASSWORD)).toBe(true);
        expect(await signsIn(api, email, DEMO_PASSWORD)).toBe(false);
        expect(await sessionUids(api, id)).toEqual(['s-this']);
        const { rows } = await api.db.query(
          `select id from idp_payloads where model = 'RefreshToken' order by id`,
        );
        expect(rows).toEqual([{ id: 'refresh-s-this' }]);
        const mails = await api.mailsTo(email);
        expect(mails.map((mail) => mail.subject)).toEqual(['Portal: Ihr Passwort wurde geändert']);
        expect(mails[0]!.text_body).toContain('Chrome 131 · Linux');
      });
    });

    describe('email change', () => {
      const { id, email: oldEmail } = DEMO_USERS.coach;
      const newEmail = 'coach.neu@example.org';
      const ask = (body: Record<string, string>) => api.request('POST', EMAIL, { as: 'coach', body });
      const linkOf = (text: string) => {
        const match = /https?:\/\/\S+\/email-change\?\S+/.exec(text);
        if (!match) throw new Error(`no link in ${text}`);
        return new URL(match[0]);
      };
      const open = (link: URL) => api.app.inject({ method: 'GET', url: link.pathname + link.search });

      it('refuses the same address, an invalid one and a wrong password, with field errors', async () => {
        const cases: [Record<string, string>, number, Record<string, string>][] = [
          [
            { newEmail: oldEmail.toUpperCase(), currentPassword: DEMO_PASSWORD },
            422,
            { newEmail: 'sameAddress' },
          ],
          [{ newEmail: 'no-address', currentPassword: DEMO_PASSWORD }, 422, { newEmail: 'email' }],
          [{ newEmail, currentPassword: 'wrong' }, 422, { currentPassword: 'wrongPassword' }],
        ];
        for (const [body, status, fields] of cases) {
          const response = await ask(body);
          expect(response.statusCode).toBe(status);
          expect(response.json().details.fields).toEqual(fields);
        }
        expect(await api.mailsTo(newEmail)).toEqual([]);
      });

      it('answers an address in use as a new one (no registration oracle); its owner is told, no link is sent', async () => {
        // Issue 21 item 7: a taken address answered 422 `unavailable` and a new one 202, so anyone signed in could
        // test whether an address has an account.
        const { email: freshEmail } = DEMO_USERS.fresh;
        const taken = DEMO_USERS.inhaber.email;
        const askAs = (newEmail: string) =>
          api.request('POST', EMAIL, { as: 'fresh', body: { newEmail, currentPassword: DEMO_PASSWORD } });
        const unknown = 'niemand.bisher@example.org';

        const first = await askAs(unknown);
        const again = await askAs(taken.toUpperCase());
        // The same limit for both: a second request within the minute is refused either way.
        expect([first.statusCode, again.statusCode]).toEqual([202, 429]);
        await api.db.query(
          `update limit_hits set at = at - interval '2 minutes' where name = 'email-change'`,
        );

        const inUse = await askAs(taken.toUpperCase());
        expect(inUse.statusCode).toBe(202);
        expect(inUse.json().data.pending).toMatchObject({ email: taken.toUpperCase() });
        expect((await api.request('GET', EMAIL, { as: 'fresh' })).json().data.pending.email).toBe(
          taken.toUpperCase(),
        );
        expect((await askAs(unknown)).statusCode).toBe(429);
        await api.db.query(
          `update limit_hits set at = at - interval '2 minutes' where name = 'email-change'`,
        );
        const fresh = await askAs(unknown);
        expect(fresh.statusCode).toBe(202);
        expect(Object.keys(fresh.json().data)).toEqual(Object.keys(inUse.json().data));

        // The person asking gets the same notice for both; the owner of the address gets no link, only a warning
        // in her language (French), without the asker's browser or client address.
        const notices = await api.mailsTo(freshEmail);
        expect(notices.map((mail) => mail.subject)).toEqual(
          Array(3).fill('Portal: Änderung Ihrer E-Mail-Adresse angefordert'),
        );
        const owned = await api.mailsTo(taken);
        expect(owned.map((mail) => mail.subject)).toEqual([
          'Portal\u00a0: Quelqu’un a tenté d’utiliser votre adresse e-mail',
        ]);
        expect(owned[0]!.text_body).not.toContain('/email-change');
        expect(owned[0]!.text_body).not.toContain('127.0.0.1');
        expect(owned[0]!.text_body).not.toContain(freshEmail);
        expect(await api.mailsTo(taken.toUpperCase())).toEqual([]);
        // The change can never complete: the address stays with its owner.
        expect(await signsIn(api, taken, DEMO_PASSWORD)).toBe(true);
        expect((await api.request('DELETE', EMAIL, { as: 'fresh' })).statusCode).toBe(204);
      });

      it('applies only when the link is opened, once; both addresses are told', async () => {
        const asked = await ask({ newEmail, currentPassword: DEMO_PASSWORD });
        expect(asked.statusCode).toBe(202);
        expect(asked.json().data.pending).toMatchObject({ email: newEmail });
        const state = await api.request('GET', EMAIL, { as: 'coach' });
        expect(state.json().data.pending.email).toBe(newEmail);

        const [request] = await api.mailsTo(newEmail);
        expect(request!.subject).toBe('Portal: Bestätigen Sie Ihre neue E-Mail-Adresse');
        const notices = await api.mailsTo(oldEmail);
        expect(notices.map((mail) => mail.subject)).toEqual([
          'Portal: Änderung Ihrer E-Mail-Adresse angefordert',
        ]);
        expect(notices[0]!.text_body).not.toContain('/email-change');

        // Before the link: the old address still signs in, the new one does not.
        expect(await signsIn(api, oldEmail, DEMO_PASSWORD)).toBe(true);
        expect(await signsIn(api, newEmail, DEMO_PASSWORD)).toBe(false);

        const link = linkOf(request!.text_body);
        const opened = await open(link);
        expect(opened.statusCode).toBe(200);
        expect(opened.body).toContain(newEmail);
        expect(await signsIn(api, newEmail, DEMO_PASSWORD)).toBe(true);
        expect(await signsIn(api, oldEmail, DEMO_PASSWORD)).toBe(false);
        const { rows } = await api.db.query('select email, email_verified from users where subject = $1', [
          id,
        ]);
        expect(rows).toEqual([{ email: newEmail, email_verified: true }]);
        const told = await api.mailsTo(oldEmail);
        expect(told.map((mail) => mail.subject)).toContain('Portal: Ihre E-Mail-Adresse wurde geändert');

        // Single use.
        expect((await open(link)).statusCode).toBe(400);
        await api.db.query('update idp_identities set email = $2 where id = $1', [id, oldEmail]);
      });

      it('refuses an expired or cancelled link', async () => {
        await api.db.query(
          `update limit_hits set at = at - interval '2 minutes' where name = 'email-change'`,
        );
        expect((await ask({ newEmail, currentPassword: DEMO_PASSWORD })).statusCode).toBe(202);
        const expiredLink = linkOf((await api.mailsTo(newEmail)).at(-1)!.text_body);
        await api.db.query(
          `update idp_action_tokens set expires_at = now() - interval '1 second', created_at = now() - interval '25 hours'
           where kind = 'email-change' and used_at is null`,
        );
        expect((await api.request('GET', EMAIL, { as: 'coach' })).json().data.pending).toBeNull();
        expect((await open(expiredLink)).statusCode).toBe(400);

        await api.db.query(
          `update limit_hits set at = at - interval '2 minutes' where name = 'email-change'`,
        );
        expect((await ask({ newEmail, currentPassword: DEMO_PASSWORD })).statusCode).toBe(202);
        const cancelledLink = linkOf((await api.mailsTo(newEmail)).at(-1)!.text_body);
        expect((await api.request('DELETE', EMAIL, { as: 'coach' })).statusCode).toBe(204);
        expect((await open(cancelledLink)).statusCode).toBe(400);
        expect(await signsIn(api, oldEmail, DEMO_PASSWORD)).toBe(true);
      });
    });
  },
  { embeddedIdp: true },
);

describeApi('security forms with an external Keycloak', (api) => {
  it('answers 409: its account console keeps the credentials', async () => {
    const response = await api.request('POST', PASSWORD, {
      as: 'owner',
      body: { currentPassword: DEMO_PASSWORD, newPassword: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('SIGN_IN_MANAGED_EXTERNALLY');
  });
});

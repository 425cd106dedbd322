import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT_NAMES, DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_USERS } from '../../demo/users.ts';
import { createIdentity, findIdentityById, verifyPassword } from '../../idp/identities.ts';
import { describeApi, type TestApi } from '../../test/api.ts';

const EXPORT = '/api/users/v1/me/data-export';
const DELETION = '/api/users/v1/me/deletion';
const MUSTER = DEMO_ACCOUNTS.muster;
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPSECRET';

/** A ticket of Muster AG by the employee (with an attachment) that the owner answered. */
async function employeeTicket(api: TestApi): Promise<string> {
  const created = await api.request('POST', `/api/accounts/${MUSTER}/support/v1/tickets`, {
    as: 'employee',
    body: {
      category: 'TECHNICAL',
      severity: 'NORMAL',
      subject: 'Drucker streikt',
      description: 'Der Drucker im 2. Stock druckt nicht.',
      staffAccessConsent: false,
      attachments: [{ fileName: 'fehler.png', content: PNG }],
    },
  });
  expect(created.statusCode).toBe(201);
  const ticketUuid: string = created.json().data.ticket.uuid;
  const reply = await api.request(
    'POST',
    `/api/accounts/${MUSTER}/support/v1/tickets/${ticketUuid}/messages`,
    {
      as: 'owner',
      body: { body: 'Antwort der Inhaberin, nur für sie', attachments: [] },
    },
  );
  expect(reply.statusCode, reply.body).toBeLessThan(300);
  return ticketUuid;
}

describeApi(
  'my data: export and deletion of the login',
  (api) => {
    const employee = DEMO_USERS.employee;

    describe('the export', () => {
      it('asks the password again, once a day, and the ZIP holds the person’s data and nothing of anyone else', async () => {
        await employeeTicket(api);
        // Secrets the export must leave out, and another person's data near the employee's.
        await api.db.query(
          `insert into idp_totp (identity_id, secret, confirmed_at) values ($1, $2, now())
           on conflict (identity_id) do update set secret = $2, confirmed_at = now()`,
          [employee.id, TOTP_SECRET],
        );
        await api.db.query(
          `insert into notifications (account_uuid, user_uuid, type, params)
           values ($1, $2, 'member.role_changed', $3::jsonb)`,
          [
            MUSTER,
            employee.id,
            JSON.stringify({ accountName: 'Muster AG', role: 'ADMIN', changedBy: DEMO_USERS.admin.email }),
          ],
        );
        await api.db.query(
          `insert into audit_log (account_uuid, actor_uuid, action, target, after)
           values ($1, $2, 'invitation.create', 'invitation:x', $3::jsonb)`,
          [MUSTER, employee.id, JSON.stringify({ email: DEMO_USERS.admin.email })],
        );

        const wrong = await api.request('POST', EXPORT, {
          as: 'employee',
          body: { password: 'nicht-meins' },
        });
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().details.fields).toEqual({ password: 'wrongPassword' });
        const missing = await api.request('POST', EXPORT, { as: 'employee', body: {} });
        expect(missing.statusCode).toBe(422);

        const asked = await api.request('POST', EXPORT, {
          as: 'employee',
          body: { password: DEMO_PASSWORD },
        });
        expect(asked.statusCode).toBe(202);
        expect(asked.json().data.state).toBe('preparing');
        const again = await api.request('POST', EXPORT, {
          as: 'employee',
          body: { password: DEMO_PASSWORD },
        });
        expect(again.statusCode).toBe(429);
        expect(again.json().code).toBe('DATA_EXPORT_TOO_SOON');

        const mails = await api.mailsTo(employee.email);
        expect(mails.map((mail) => mail.subject).join('|')).toContain(
          'Ihre Daten stehen zum Download bereit',
        );
        const status = (await api.request('GET', EXPORT, { as: 'employee' })).json().data;
        expect(status.latest.state).toBe('ready');
        expect(status.nextAllowedAt).not.toBeNull();
        const { rows: inbox } = await api.db.query(
          "select 1 from notifications where user_uuid = $1 and type = 'data_export.ready'",
          [employee.id],
        );
        expect(inbox).toHaveLength(1);

        // Only the person downloads it.
        const uuid: string = status.latest.uuid;
        expect((await api.request('GET', `${EXPORT}/${uuid}/file`, { as: 'owner' })).statusCode).toBe(404);
        const download = await api.request('GET', `${EXPORT}/${uuid}/file`, { as: 'employee' });
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-type']).toBe('application/zip');
        const files = unzipSync(new Uint8Array(download.rawPayload));
        const names = Object.keys(files);
        expect(names).toEqual(
          expect.arrayContaining(['README.txt', 'profile.json', 'memberships.json', 'log.json']),
        );
        const attachment = names.find((name) => name.startsWith('attachments/'));
        expect(attachment).toMatch(/fehler\.png$/);
        expect(Buffer.from(files[attachment!]!).equals(Buffer.from(PNG, 'base64'))).toBe(true);
        expect(strFromU8(files['README.txt']!)).toContain('Ihre Daten im Portal');
        expect(JSON.parse(strFromU8(files['profile.json']!)).email).toBe(employee.email);
        const messages = JSON.parse(strFromU8(files['messages.json']!));
        expect(messages.map((m: { body: string }) => m.body)).toContain(
          'Der Drucker im 2. Stock druckt nicht.',
        );
        const signIn = JSON.parse(strFromU8(files['sign-in.json']!));
        expect(signIn.twoFactor.authenticatorApp).toBe(true);

        const text = names
          .filter((name) => !name.startsWith('attachments/'))
          .map((name) => strFromU8(files[name]!))
          .join('\n');
        for (const other of [DEMO_USERS.owner, DEMO_USERS.admin, DEMO_USERS.coach]) {
          expect(text).not.toContain(other.email);
          expect(text).not.toContain(other.name);
        }
        expect(text).not.toContain(DEMO_ACCOUNT_NAMES.neu);
        expect(text).not.toContain('Antwort der Inhaberin');
        expect(text).not.toContain(TOTP_SECRET);
        expect(text).not.toMatch(/\$argon2|password_?hash|token_hash|code_hash|credential_?id|public_?key/i);
      });
    });

    describe('the deletion of the login', () => {
      it('refuses the only owner of an account and names the account', async () => {
        const preview = (await api.request('GET', DELETION, { as: 'owner' })).json().data;
        expect(preview.soleOwnerOf).toEqual([{ uuid: MUSTER, name: DEMO_ACCOUNT_NAMES.muster }]);
        const refused = await api.request('POST', DELETION, {
          as: 'owner',
          body: { password: DEMO_PASSWORD, confirmation: DEMO_USERS.owner.email },
        });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().code).toBe('SOLE_OWNER');
        expect(refused.json().details.fields.accounts).toBe(MUSTER);
        expect(await findIdentityById(api.db, DEMO_USERS.owner.id)).toBeDefined();
      });

      it('asks the password and the address, then ends the memberships, the sessions and the identity', async () => {
        const ticketUuid = await employeeTicket(api);
        await api.db.query(
          `insert into idp_payloads (model, id, payload, uid, expires_at)
           values ('Session', 'session-del', $1::jsonb, 'del', now() + interval '1 hour')`,
          [JSON.stringify({ accountId: employee.id, uid: 'del' })],
        );
        await api.db.query(
          `insert into audit_log (account_uuid, actor_uuid, action, target, after)
           values ($1, null, 'invitation.create', 'invitation:y', $2::jsonb)`,
          [MUSTER, JSON.stringify({ email: employee.email, role: 'EMPLOYEE' })],
        );

        const mismatch = await api.request('POST', DELETION, {
          as: 'employee',
          body: { password: DEMO_PASSWORD, confirmation: 'jemand@example.com' },
        });
        expect(mismatch.statusCode).toBe(422);
        expect(mismatch.json().details.fields).toEqual({ confirmation: 'mismatch' });
        const wrong = await api.request('POST', DELETION, {
          as: 'employee',
          body: { password: 'nicht-meins', confirmation: employee.email },
        });
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().details.fields).toEqual({ password: 'wrongPassword' });

        const deleted = await api.request('POST', DELETION, {
          as: 'employee',
          body: { password: DEMO_PASSWORD, confirmation: ` ${employee.email.toUpperCase()} ` },
        });
        expect(deleted.statusCode, deleted.body).toBe(204);

        // The person cannot sign in, and a token issued before is refused.
        expect((await verifyPassword(api.db, employee.email, DEMO_PASSWORD)).valid).toBe(false);
        expect((await api.request('GET', '/api/users/v1/me', { as: 'employee' })).statusCode).toBe(401);
        const { rows: sessions } = await api.db.query(
          "select 1 from idp_payloads where model = 'Session' and payload->>'accountId' = $1",
          [employee.id],
        );
        expect(sessions).toEqual([]);
        // Gone from the members list; the messages they wrote stay, without a name.
        const members = await api.request('GET', `/api/accounts/${MUSTER}/members/v1/members?pageSize=100`, {
          as: 'owner',
        });
        expect(JSON.stringify(members.json())).not.toContain(employee.email);
        const ticket = await api.request('GET', `/api/accounts/${MUSTER}/support/v1/tickets/${ticketUuid}`, {
          as: 'owner',
        });
        const first = ticket.json().data.messages[0];
        expect(first.body).toBe('Der Drucker im 2. Stock druckt nicht.');
        expect(first.authorName).toBeNull();
        // The log keeps what happened, without the address; the leave is in it.
        const { rows: log } = await api.db.query<{ action: string; after: unknown }>(
          `select action, after from audit_log where account_uuid = $1 and (target = 'invitation:y' or
             (action = 'member.leave' and target = $2))`,
          [MUSTER, `user:${employee.id}`],
        );
        expect(log).toEqual(
          expect.arrayContaining([
            { action: 'invitation.create', after: { email: '', role: 'EMPLOYEE' } },
            { action: 'member.leave', after: { reason: 'login deleted' } },
          ]),
        );
        // The address can be registered again.
        const again = await createIdentity(api.db, {
          email: employee.email,
          name: 'Emma Neu',
          password: 'Ein-neues-Passwort-2026',
          locale: 'de',
        });
        expect(again.id).not.toBe(employee.id);
      });
    });
  },
  { embeddedIdp: true },
);

import { strFromU8, unzipSync } from 'fflate';
import { expect, it } from 'vitest';
import { DEMO_ACCOUNT_NAMES, DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_USERS } from '../../demo/users.ts';
import { describeApi } from '../../test/api.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const NEU = DEMO_ACCOUNTS.neu;
const EXPORT = `/api/accounts/${MUSTER}/company/v1/data-export`;
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** Secrets of Muster AG's integrations and another account's data: none of it may be in the archive. */
const SECRETS = [
  'cloud-access-SECRET-1',
  'cloud-refresh-SECRET-2',
  'sealed-shop-key-SECRET',
  'device-hash-SECRET',
];
const CARD_REFERENCES = ['cus_SECRET_customer', 'pm_SECRET_method'];
const NEU_MARKER = 'Nur für Neu Sàrl bestimmt';

describeApi(
  'the account data export (owner only)',
  (api) => {
    it('lets only the owner ask, once a day, with the password, and the ZIP holds the account and nothing else', async () => {
      // Who may: the owner; ADMIN and EMPLOYEE are refused, another account's owner does not see the account.
      for (const [as, status] of [
        ['admin', 403],
        ['employee', 403],
        ['newowner', 404],
      ] as const) {
        expect((await api.request('GET', EXPORT, { as })).statusCode).toBe(status);
        const asked = await api.request('POST', EXPORT, { as, body: { password: DEMO_PASSWORD } });
        expect(asked.statusCode).toBe(status);
      }

      // What goes along: a ticket with an attachment and an internal note, integrations with their secrets, a
      // card's references; and another account's ticket and log entry that must stay out.
      const ticket = await api.request('POST', `/api/accounts/${MUSTER}/support/v1/tickets`, {
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
      expect(ticket.statusCode).toBe(201);
      const ticketUuid: string = ticket.json().data.ticket.uuid;
      await api.db.query(
        `insert into support_messages (ticket_uuid, author_uuid, author_kind, internal, body)
         values ($1, null, 'AGENT', true, 'Interne Notiz des Supports')`,
        [ticketUuid],
      );
      await api.db.query(
        `insert into cloud_connections (uuid, account_uuid, access_token, refresh_token, access_expires_at,
           cloud_subject, cloud_name, cloud_email)
         values (gen_random_uuid(), $1, $2, $3, now() + interval '1 hour', 'subject-1', 'Muster Cloud', 'cloud@muster.example')
         on conflict (account_uuid) do update set access_token = $2, refresh_token = $3`,
        [MUSTER, SECRETS[0], SECRETS[1]],
      );
      await api.db.query(
        `insert into shop_connections (uuid, account_uuid, url, api_key_sealed, api_key_last_four, sync_products,
           sync_orders, sync_customers, sync_interval, enabled)
         values (gen_random_uuid(), $1, 'https://shop.muster.example', $2, '9876', true, false, false, 'HOURS_1', true)
         on conflict (account_uuid) do update set api_key_sealed = $2`,
        [MUSTER, SECRETS[2]],
      );
      await api.db.query(
        `insert into abaclik_devices (uuid, account_uuid, user_uuid, name, platform, app_version, token_hash)
         values (gen_random_uuid(), $1, $2, 'iPhone Emma', 'IOS', '2.1', $3)`,
        [MUSTER, DEMO_USERS.employee.id, SECRETS[3]],
      );
      await api.db.query(
        `update billing_details set card_customer_id = $2, card_payment_method_id = $3 where account_uuid = $1`,
        [MUSTER, ...CARD_REFERENCES],
      );
      await api.db.query(
        `insert into support_tickets (account_uuid, created_by, category, severity, subject)
         values ($1, $2, 'OTHER', 'LOW', $3)`,
        [NEU, DEMO_USERS.newowner.id, NEU_MARKER],
      );
      await api.db.query(
        `insert into audit_log (account_uuid, actor_uuid, action, target, after) values
           ($1, $2, 'test.export', 'account:x', '{"marker": "im Protokoll von Muster"}'::jsonb),
           ($3, $4, 'test.export', 'account:y', $5::jsonb)`,
        [MUSTER, DEMO_USERS.owner.id, NEU, DEMO_USERS.newowner.id, JSON.stringify({ marker: NEU_MARKER })],
      );

      // The password again, then once a day per account.
      const wrong = await api.request('POST', EXPORT, { as: 'owner', body: { password: 'nicht-meins' } });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().details.fields).toEqual({ password: 'wrongPassword' });
      const asked = await api.request('POST', EXPORT, { as: 'owner', body: { password: DEMO_PASSWORD } });
      expect(asked.statusCode, asked.body).toBe(202);
      const again = await api.request('POST', EXPORT, { as: 'owner', body: { password: DEMO_PASSWORD } });
      expect(again.statusCode).toBe(429);
      expect(again.json().code).toBe('DATA_EXPORT_TOO_SOON');
      // The person's own export is a rule of its own: the account's export does not use it up.
      const own = await api.request('GET', '/api/users/v1/me/data-export', { as: 'owner' });
      expect(own.json().data).toMatchObject({ latest: null, nextAllowedAt: null });

      // Ready: a mail and an inbox entry to the owner, of the account.
      const mails = await api.mailsTo(DEMO_USERS.owner.email);
      expect(mails.map((mail) => mail.subject).join('|')).toContain(
        'Die Kontodaten stehen zum Download bereit',
      );
      const { rows: inbox } = await api.db.query(
        `select 1 from notifications where user_uuid = $1 and account_uuid = $2 and type = 'data_export.ready'`,
        [DEMO_USERS.owner.id, MUSTER],
      );
      expect(inbox).toHaveLength(1);
      const status = (await api.request('GET', EXPORT, { as: 'owner' })).json().data;
      expect(status.latest.state).toBe('ready');
      const file = `${EXPORT}/${status.latest.uuid}/file`;
      expect((await api.request('GET', file, { as: 'admin' })).statusCode).toBe(403);
      expect(
        (
          await api.request('GET', `/api/accounts/${NEU}/company/v1/data-export/${status.latest.uuid}/file`, {
            as: 'newowner',
          })
        ).statusCode,
      ).toBe(404);

      const download = await api.request('GET', file, { as: 'owner' });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      expect(download.headers['content-disposition']).toContain('portal-Muster-AG-');
      const files = unzipSync(new Uint8Array(download.rawPayload));
      const names = Object.keys(files);
      expect(names).toEqual(
        expect.arrayContaining([
          'README.txt',
          'company.json',
          'members.json',
          'invitations.json',
          'subscription.json',
          'invoices.json',
          'payments.json',
          'log.csv',
          'tickets.json',
          'integrations.json',
        ]),
      );
      expect(strFromU8(files['README.txt']!)).toContain('Daten des Kontos «Muster AG»');
      const members = JSON.parse(strFromU8(files['members.json']!)) as { email: string }[];
      expect(members.map((member) => member.email)).toContain(DEMO_USERS.employee.email);
      const attachment = names.find((name) => name.startsWith('tickets/') && name.endsWith('fehler.png'));
      expect(Buffer.from(files[attachment!]!).equals(Buffer.from(PNG, 'base64'))).toBe(true);
      // The log's own CSV export: UTF-8 with a byte order mark.
      expect([...files['log.csv']!.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const log = strFromU8(files['log.csv']!);
      expect(log).toContain('im Protokoll von Muster');

      // Every invoice, byte for byte its download.
      const invoices = JSON.parse(strFromU8(files['invoices.json']!)) as { number: string; pdf: string }[];
      const { rows: invoiceRows } = await api.db.query<{ uuid: string; number: string }>(
        'select uuid, number from invoices where account_uuid = $1',
        [MUSTER],
      );
      expect(invoiceRows.length).toBeGreaterThan(1);
      expect(invoices.map((invoice) => invoice.number).sort()).toEqual(
        invoiceRows.map((row) => row.number).sort(),
      );
      for (const row of invoiceRows) {
        const pdf = await api.request('GET', `/api/accounts/${MUSTER}/billing/v1/invoices/${row.uuid}/pdf`, {
          as: 'owner',
        });
        expect(pdf.statusCode).toBe(200);
        const inZip = files[invoices.find((invoice) => invoice.number === row.number)!.pdf];
        expect(inZip, row.number).toBeDefined();
        expect(Buffer.from(inZip!).equals(pdf.rawPayload), `invoice ${row.number}`).toBe(true);
      }

      // Nothing of another account, nothing secret, no internal note.
      const text = names
        .filter((name) => !/\.(png|jpg|pdf)$/.test(name))
        .map((name) => strFromU8(files[name]!))
        .join('\n');
      expect(text).toContain('Muster Cloud');
      expect(text).not.toContain(DEMO_ACCOUNT_NAMES.neu);
      expect(text).not.toContain(DEMO_USERS.newowner.email);
      expect(text).not.toContain(NEU_MARKER);
      expect(text).not.toContain('Interne Notiz des Supports');
      for (const secret of [...SECRETS, ...CARD_REFERENCES]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/token_hash|api_key|access_?token|refresh_?token|\$argon2|password/i);
    });
  },
  { embeddedIdp: true },
);

import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../demo/users.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { recordSignIn } from '../../idp/sign-in-history.ts';
import { purgeExpired, RETENTION_RULES } from '../../jobs/retention.ts';
import { describeApi } from '../../test/api.ts';

const HISTORY = '/api/users/v1/me/security/sign-ins';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describeApi(
  'security: sign-in history',
  (api) => {
    describe('GET /users/v1/me/security/sign-ins', () => {
      it('lists the last 90 days newest first, page by page, with browser and system', async () => {
        const { id } = DEMO_USERS.admin;
        for (let day = 0; day < 5; day++) {
          await api.db.query(
            `insert into idp_sign_ins (identity_id, outcome, method, user_agent, client_address, created_at)
             values ($1, $2, 'password', $3, '203.0.113.7', now() - make_interval(days => $4))`,
            [id, day % 2 ? 'wrong-password' : 'success', FIREFOX, day * 20],
          );
        }
        // Another person's sign-ins are never listed.
        await recordSignIn(api.db, {
          identityId: DEMO_USERS.owner.id,
          outcome: 'success',
          method: 'password',
        });

        const first = await api.request('GET', `${HISTORY}?pageSize=2`, { as: 'admin' });
        expect(first.statusCode).toBe(200);
        const page1 = first.json();
        expect(page1.data).toHaveLength(2);
        expect(page1.data[0]).toMatchObject({
          outcome: 'success',
          method: 'password',
          browser: 'Firefox 133',
          system: 'Windows',
          clientAddress: '203.0.113.7',
        });
        const second = (
          await api.request('GET', `${HISTORY}?pageSize=2&cursor=${page1.meta.nextCursor}`, { as: 'admin' })
        ).json();
        const third = (
          await api.request('GET', `${HISTORY}?pageSize=2&cursor=${second.meta.nextCursor}`, { as: 'admin' })
        ).json();
        const all = [...page1.data, ...second.data, ...third.data];
        expect(all).toHaveLength(5);
        expect(third.meta.nextCursor).toBeNull();
        const times = all.map((entry: { at: string }) => Date.parse(entry.at));
        expect(times).toEqual([...times].sort((a, b) => b - a));
        expect(new Set(all.map((entry: { id: string }) => entry.id)).size).toBe(5);
      });

      it('leaves out attempts older than 90 days, and the purge removes them', async () => {
        const { id } = DEMO_USERS.employee;
        await api.db.query(
          `insert into idp_sign_ins (identity_id, outcome, method, created_at)
           values ($1, 'success', 'password', now() - interval '91 days'),
                  ($1, 'locked', 'password', now() - interval '89 days')`,
          [id],
        );
        const listed = (await api.request('GET', HISTORY, { as: 'employee' })).json();
        expect(listed.data.map((entry: { outcome: string }) => entry.outcome)).toEqual(['locked']);
        const rule = RETENTION_RULES.find((r) => r.setting === 'signInsDays')!;
        await purgeExpired(api.db, rule, api.config.retention.signInsDays);
        const { rows } = await api.db.query('select outcome from idp_sign_ins where identity_id = $1', [id]);
        expect(rows).toEqual([{ outcome: 'locked' }]);
      });

      it('refuses a cursor it did not give', async () => {
        const response = await api.request('GET', `${HISTORY}?cursor=bm9wZQ`, { as: 'owner' });
        expect(response.statusCode).toBe(422);
      });
    });

    describe('sign-in from a new browser', () => {
      it('mails once per new browser, never for the first sign-in ever', async () => {
        const { id, email } = DEMO_USERS.coach;
        const sent: MailMessage[] = [];
        const mail = {
          mailer: { send: async (message: MailMessage) => void sent.push(message) },
          config: api.config,
        };
        const signIn = (userAgent: string) =>
          recordSignIn(
            api.db,
            { identityId: id, outcome: 'success', method: 'password', userAgent, ip: '198.51.100.4' },
            mail,
          );
        expect(await signIn(FIREFOX)).toEqual({ newBrowser: false });
        expect(await signIn(FIREFOX.replace('133.0', '134.0'))).toEqual({ newBrowser: false });
        // A failed attempt from another browser is no sign-in.
        await recordSignIn(
          api.db,
          { identityId: id, outcome: 'wrong-password', method: 'password', userAgent: SAFARI },
          mail,
        );
        expect(sent).toEqual([]);
        expect(await signIn(SAFARI)).toEqual({ newBrowser: true });
        expect(await signIn(SAFARI)).toEqual({ newBrowser: false });
        expect(sent.map((m) => [m.to, m.subject])).toEqual([
          [email, 'Portal: Anmeldung mit einem neuen Browser'],
        ]);
        expect(sent[0]!.text).toContain('Safari 17 · macOS');
        expect(sent[0]!.text).toContain('198.51.100.4');
        expect(sent[0]!.html).toContain('198.51.100.4');
      });
    });
  },
  { embeddedIdp: true },
);

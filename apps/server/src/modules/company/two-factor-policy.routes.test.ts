import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { createNotifier } from '../../notifications/notifier.ts';
import { describeApi, type TestApi } from '../../test/api.ts';
import { allowStaff } from '../../test/support-tickets.ts';
import { remindTwoFactor } from './two-factor-policy.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const policyUrl = (account: string) => `/api/accounts/${account}/company/v1/two-factor-policy`;
const previewUrl = (account: string) => `${policyUrl(account)}/members-without`;
/** An area route of the account every member may call. */
const areaUrl = (account: string) => `/api/accounts/${account}/notifications/v1/notifications`;

/** A confirmed authenticator app for a demo login (the secret's text does not matter here). */
const giveTotp = (api: TestApi, identity: string) =>
  api.db.query(
    `insert into idp_totp (identity_id, secret, confirmed_at) values ($1, 'v1.sealed.text', now())
     on conflict (identity_id) do update set confirmed_at = now()`,
    [identity],
  );

const notices = async (api: TestApi, user: string, account: string) =>
  (
    await api.db.query(
      `select 1 from notifications where type = 'account.two_factor_required' and user_uuid = $1
          and account_uuid = $2`,
      [user, account],
    )
  ).rows.length;

describeApi(
  'two-factor rule of an account (embedded sign-in service)',
  (api) => {
    it('is off by default and tells an admin how many members have no second factor', async () => {
      await giveTotp(api, DEMO_USERS.coach.id);
      const res = await api.request('GET', policyUrl(MUSTER), { as: 'admin' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        enabled: false,
        graceDays: 7,
        graceUntil: null,
        provider: 'embedded',
        membersWithout: 4,
      });
    });

    it('previews who has no second factor, paged on the server', async () => {
      const first = await api.request('GET', `${previewUrl(MUSTER)}?pageSize=2`, { as: 'owner' });
      expect(first.statusCode).toBe(200);
      expect(first.json().meta).toEqual({ total: 4, page: 1, pageSize: 2 });
      const second = await api.request('GET', `${previewUrl(MUSTER)}?pageSize=2&page=2`, { as: 'owner' });
      const emails = [...first.json().data, ...second.json().data].map((m: { email: string }) => m.email);
      expect(emails).toHaveLength(4);
      expect(emails).not.toContain(DEMO_USERS.coach.email);
      expect(emails).toContain(DEMO_USERS.employee.email);
    });

    it('may be changed by the owner only: ADMIN 403, a member of another account 404, bad grace 422', async () => {
      const body = { enabled: true, graceDays: 7 };
      expect((await api.request('PUT', policyUrl(MUSTER), { as: 'admin', body })).statusCode).toBe(403);
      expect((await api.request('PUT', policyUrl(MUSTER), { as: 'inhaber', body })).statusCode).toBe(404);
      expect((await api.request('GET', policyUrl(MUSTER), { as: 'inhaber' })).statusCode).toBe(404);
      expect((await api.request('GET', policyUrl(MUSTER), { as: 'employee' })).statusCode).toBe(403);
      const bad = await api.request('PUT', policyUrl(MUSTER), {
        as: 'owner',
        body: { enabled: true, graceDays: 5 },
      });
      expect(bad.statusCode).toBe(422);
      expect((await api.request('GET', policyUrl(MUSTER), { as: 'owner' })).json().data.enabled).toBe(false);
    });

    it('switched on: audited, tells members without a second factor in the inbox and by mail, reminds once per step', async () => {
      const res = await api.request('PUT', policyUrl(MUSTER), {
        as: 'owner',
        body: { enabled: true, graceDays: 7 },
      });
      expect(res.statusCode).toBe(200);
      const policy = res.json().data;
      expect(policy).toMatchObject({
        enabled: true,
        graceDays: 7,
        enabledBy: { email: DEMO_USERS.owner.email },
      });
      const days = (Date.parse(policy.graceUntil) - Date.parse(policy.enabledAt)) / 86_400_000;
      expect(days).toBeCloseTo(7, 5);
      expect((await api.audit(MUSTER))[0]).toMatchObject({
        action: 'company.two_factor_policy',
        actor_uuid: DEMO_USERS.owner.id,
      });
      const { rows } = await api.db.query(
        `select before, after from audit_log where account_uuid = $1 and action = 'company.two_factor_policy'`,
        [MUSTER],
      );
      expect(rows[0]).toMatchObject({ before: { enabled: false }, after: { enabled: true, graceDays: 7 } });

      expect(await notices(api, DEMO_USERS.employee.id, MUSTER)).toBe(1);
      expect(await notices(api, DEMO_USERS.coach.id, MUSTER)).toBe(0);
      const mails = await api.mailsTo(DEMO_USERS.employee.email);
      expect(mails.some((m) => m.subject.includes('Zwei-Faktor'))).toBe(true);

      // During the grace period the area stays open; the account list says the rule is coming.
      expect((await api.request('GET', areaUrl(MUSTER), { as: 'employee' })).statusCode).toBe(200);
      const accounts = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'employee' })).json()
        .data;
      expect(accounts.find((a: { uuid: string }) => a.uuid === MUSTER)).toMatchObject({
        twoFactorRequired: 'grace',
        twoFactorGraceUntil: policy.graceUntil,
      });

      // Nothing due yet; 2 days before the end the 3-day reminder is, exactly once however often the job runs.
      const notifier = createNotifier();
      expect(await remindTwoFactor(api.db, notifier, true)).toBe(0);
      await api.db.query(
        `update account_two_factor_policies set enabled_at = now() - interval '5 days',
                grace_until = now() + interval '2 days' where account_uuid = $1`,
        [MUSTER],
      );
      expect(await remindTwoFactor(api.db, notifier, true)).toBe(4);
      expect(await remindTwoFactor(api.db, notifier, true)).toBe(0);
      await api.app.jobs.drain();
      expect(await notices(api, DEMO_USERS.employee.id, MUSTER)).toBe(2);
    });

    it('after the grace period refuses a member without a second factor, but not their other accounts or settings', async () => {
      await api.db.query(
        `update account_two_factor_policies set grace_until = now() - interval '1 minute' where account_uuid = $1`,
        [MUSTER],
      );
      const refused = await api.request('GET', areaUrl(MUSTER), { as: 'admin' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('TWO_FACTOR_REQUIRED');
      // The account itself, the person's settings and another account stay reachable; nobody was removed.
      expect(
        (await api.request('GET', `/api/accounts/v1/accounts/${MUSTER}`, { as: 'admin' })).statusCode,
      ).toBe(200);
      expect((await api.request('GET', '/api/users/v1/me/security', { as: 'admin' })).statusCode).toBe(200);
      expect((await api.request('GET', areaUrl(BEISPIEL), { as: 'owner' })).statusCode).toBe(200);
      const accounts = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'owner' })).json().data;
      expect(accounts.find((a: { uuid: string }) => a.uuid === MUSTER).twoFactorRequired).toBe('enforced');
      expect(accounts.find((a: { uuid: string }) => a.uuid === BEISPIEL).twoFactorRequired).toBe('none');
      const members = await api.db.query('select 1 from account_members where account_uuid = $1', [MUSTER]);
      expect(members.rows).toHaveLength(5);
      // A member with a second factor passes.
      expect((await api.request('GET', areaUrl(MUSTER), { as: 'coach' })).statusCode).toBe(200);
    });

    it('lets a member in again once they add a second factor (a passkey counts too)', async () => {
      await api.db.query(
        `insert into idp_passkeys (id, identity_id, credential_id, public_key, name)
         values (gen_random_uuid(), $1, 'cred-admin', '\\x00'::bytea, 'Laptop')`,
        [DEMO_USERS.admin.id],
      );
      expect((await api.request('GET', areaUrl(MUSTER), { as: 'admin' })).statusCode).toBe(200);
      const list = await api.request('GET', `/api/accounts/${MUSTER}/members/v1/members?pageSize=50`, {
        as: 'admin',
      });
      const byEmail = Object.fromEntries(
        list
          .json()
          .data.map((m: { email: string; hasTwoFactor: boolean | null }) => [m.email, m.hasTwoFactor]),
      );
      expect(byEmail[DEMO_USERS.admin.email]).toBe(true);
      expect(byEmail[DEMO_USERS.employee.email]).toBe(false);
    });

    it('lets staff through and logs that they passed the rule', async () => {
      await allowStaff(api, MUSTER, DEMO_USERS.owner.id);
      expect((await api.request('GET', areaUrl(MUSTER), { as: 'agent' })).statusCode).toBe(200);
      const { rows } = await api.db.query(
        `select after from audit_log where account_uuid = $1 and action = 'support.access' order by id desc limit 1`,
        [MUSTER],
      );
      expect(rows[0]?.after).toEqual({ twoFactorPolicyBypassed: true });
    });

    it('switched off by the owner: everyone is in again, audited', async () => {
      await giveTotp(api, DEMO_USERS.owner.id);
      const res = await api.request('PUT', policyUrl(MUSTER), { as: 'owner', body: { enabled: false } });
      expect(res.json().data).toMatchObject({ enabled: false, graceUntil: null });
      expect((await api.request('GET', areaUrl(MUSTER), { as: 'employee' })).statusCode).toBe(200);
      expect((await api.audit(MUSTER))[0]).toMatchObject({ action: 'company.two_factor_policy' });
    });
  },
  { embeddedIdp: true },
);

describeApi(
  'two-factor rule of an account with an external Keycloak',
  (api) => {
    const withClaims = async (claims: Record<string, unknown>) =>
      api.request('GET', areaUrl(MUSTER), { token: await api.token('employee', { claims }) });

    it('cannot preview, tells every member at switch-on, then checks the token of each request', async () => {
      expect((await api.request('GET', previewUrl(MUSTER), { as: 'owner' })).statusCode).toBe(409);
      const on = await api.request('PUT', policyUrl(MUSTER), {
        as: 'owner',
        body: { enabled: true, graceDays: 0 },
      });
      expect(on.json().data).toMatchObject({ enabled: true, provider: 'external', membersWithout: null });
      expect(await notices(api, DEMO_USERS.employee.id, MUSTER)).toBe(1);
      expect(await notices(api, DEMO_USERS.owner.id, MUSTER)).toBe(0);

      expect((await withClaims({ amr: ['pwd'] })).statusCode).toBe(403);
      expect((await withClaims({ amr: ['pwd', 'otp'] })).statusCode).toBe(200);
      expect((await withClaims({ acr: 'gold' })).statusCode).toBe(200);
      expect((await withClaims({ acr: 'silver' })).statusCode).toBe(403);
    });
  },
  { env: { OIDC_MFA_ACR: 'gold' } },
);

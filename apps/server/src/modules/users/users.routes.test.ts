import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type DemoLogin } from '../../test/api.ts';

describeApi('users API', (api) => {
  it('returns the signed-in user', async () => {
    const res = await api.request('GET', '/api/users/v1/me', { as: 'inhaber' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      uuid: DEMO_USERS.inhaber.id,
      email: 'inhaber@example.com',
      name: 'Isabelle Inhaber',
      userRole: 'STANDARD',
      language: 'fr',
      emailVerified: true,
    });
  });

  it('lists every membership of the owner, sorted by name, with role and terms', async () => {
    const res = await api.request('GET', '/api/users/v1/me/accounts', { as: 'owner' });
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta.total).toBe(2);
    expect(data.map((a: { name: string }) => a.name)).toEqual(['Beispiel GmbH', 'Muster AG']);
    expect(data[1]).toMatchObject({
      uuid: DEMO_ACCOUNTS.muster,
      accountRole: 'OWNER',
      isOwner: true,
      invitationStatus: 'ACCEPTED',
      availableUntil: null,
      acceptedAgb: true,
      acceptedPrivacyPolicy: true,
    });
    expect(data[0]).toMatchObject({ accountRole: 'EMPLOYEE', isOwner: false, invitationStatus: 'ACCEPTED' });
  });

  it('includes pending invitations', async () => {
    const res = await api.request('GET', '/api/users/v1/me/accounts', { as: 'employee' });
    const byName = Object.fromEntries(res.json().data.map((a: { name: string }) => [a.name, a]));
    expect(byName['Muster AG']).toMatchObject({ accountRole: 'EMPLOYEE', invitationStatus: 'ACCEPTED' });
    expect(byName['Beispiel GmbH']).toMatchObject({ accountRole: 'EMPLOYEE', invitationStatus: 'PENDING' });
  });

  it('shows the scheduled deletion and unaccepted terms', async () => {
    const inhaber = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'inhaber' })).json().data;
    expect(inhaber).toHaveLength(1);
    const days = (Date.parse(inhaber[0].availableUntil) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(19);
    expect(days).toBeLessThanOrEqual(20);
    const neu = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'newowner' })).json().data;
    expect(neu).toEqual([
      expect.objectContaining({
        name: 'Neu Sàrl',
        isOwner: true,
        acceptedAgb: false,
        acceptedPrivacyPolicy: false,
      }),
    ]);
  });

  it('gives fresh and agent no accounts, and the agent its staff role', async () => {
    for (const login of ['fresh', 'agent'] as const) {
      const res = await api.request('GET', '/api/users/v1/me/accounts', { as: login });
      expect(res.json()).toEqual({ data: [], meta: { total: 0, page: 1, pageSize: 0 } });
    }
    const agent = await api.request('GET', '/api/users/v1/me', { as: 'agent' });
    expect(agent.json().data.userRole).toBe('SUPPORT_AGENT');
    const coach = await api.request('GET', '/api/users/v1/me', { as: 'coach' });
    expect(coach.json().data.userRole).toBe('DC');
    const unverified = await api.request('GET', '/api/users/v1/me', { as: 'unverified' });
    expect(unverified.json().data).toMatchObject({ emailVerified: false, language: 'en' });
  });

  it('provisions a new user on first sight; email and its verification follow the provider', async () => {
    const sub = 'new-subject-1';
    const first = await api.request('GET', '/api/users/v1/me', {
      as: { sub, email: 'neu@example.com', name: 'Neue Person' },
      headers: {},
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({
      email: 'neu@example.com',
      name: 'Neue Person',
      userRole: 'STANDARD',
      language: 'de',
    });
    const token = await api.token(
      { sub },
      { claims: { email: 'renamed@example.com', name: 'Umbenannt', email_verified: true } },
    );
    const again = await api.request('GET', '/api/users/v1/me', { token });
    expect(again.json().data).toMatchObject({
      uuid: first.json().data.uuid,
      email: 'renamed@example.com',
      name: 'Umbenannt',
      emailVerified: true,
    });
  });

  it("keeps the name the user chose until the provider's name changes; then the newer one wins", async () => {
    const sub = 'new-subject-name';
    const as = { sub, email: 'name@example.com', name: 'Vom Anbieter' };
    expect((await api.request('GET', '/api/users/v1/me', { as })).json().data.name).toBe('Vom Anbieter');
    const renamed = await api.request('PATCH', '/api/users/v1/me', { as, body: { name: 'Selbst Gewählt' } });
    expect(renamed.json().data.name).toBe('Selbst Gewählt');

    // Tokens still carrying the provider's unchanged name (every request after a reload) keep the user's choice,
    // while the email address follows the provider.
    const unchanged = await api.token({ ...as, email: 'moved@example.com' });
    const reloaded = await api.request('GET', '/api/users/v1/me', { token: unchanged });
    expect(reloaded.json().data).toMatchObject({ name: 'Selbst Gewählt', email: 'moved@example.com' });

    // The provider changes the name: the newer name wins.
    const changed = await api.token({ ...as, name: 'Beim Anbieter Geändert' });
    const after = await api.request('GET', '/api/users/v1/me', { token: changed });
    expect(after.json().data.name).toBe('Beim Anbieter Geändert');

    // A token issued before that change (another tab's) does not bring the old name back.
    const stale = await api.token(as, { issuedAt: -120 });
    const late = await api.request('GET', '/api/users/v1/me', { token: stale });
    expect(late.json().data.name).toBe('Beim Anbieter Geändert');
  });

  it('takes the first language from the locale claim', async () => {
    const token = await api.token(
      { sub: 'new-subject-2', email: 'it@example.com' },
      { claims: { locale: 'it-CH' } },
    );
    const res = await api.request('GET', '/api/users/v1/me', { token });
    expect(res.json().data.language).toBe('it');
  });

  it('updates the language and name, and audits it', async () => {
    const res = await api.request('PATCH', '/api/users/v1/me', {
      as: 'admin',
      body: { language: 'fr', name: ' Adrian A. ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ language: 'fr', name: 'Adrian A.' });
    // Read again with a new token that still carries the provider's name: the user's own name stays.
    const me = await api.request('GET', '/api/users/v1/me', { as: 'admin' });
    expect(me.json().data).toMatchObject({ language: 'fr', name: 'Adrian A.' });
    const { rows } = await api.db.query<{ action: string; after: unknown }>(
      `select action, after from audit_log where actor_uuid = $1 and action = 'user.update'`,
      [DEMO_USERS.admin.id],
    );
    expect(rows).toEqual([{ action: 'user.update', after: { name: 'Adrian A.', language: 'fr' } }]);
  });

  it('refuses an unknown language with a field error (422)', async () => {
    const res = await api.request('PATCH', '/api/users/v1/me', { as: 'owner', body: { language: 'xx' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { language: 'must be one of: de, en, fr, it' } },
    });
  });

  it('refuses a blank name with a field error (422), as the form does', async () => {
    const res = await api.request('PATCH', '/api/users/v1/me', { as: 'owner', body: { name: '   ' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { name: 'is required' } },
    });
    const me = await api.request('GET', '/api/users/v1/me', { as: 'owner' });
    expect(me.json().data.name).toBe(DEMO_USERS.owner.name);
  });

  it('refuses unknown fields and empty bodies (422), malformed JSON (400)', async () => {
    const unknown = await api.request('PATCH', '/api/users/v1/me', {
      as: 'owner',
      body: { userRole: 'PORTAL_ADMIN' },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details.fields).toHaveProperty('userRole');
    const empty = await api.request('PATCH', '/api/users/v1/me', { as: 'owner', body: {} });
    expect(empty.statusCode).toBe(422);
    const malformed = await api.request('PATCH', '/api/users/v1/me', {
      as: 'owner',
      body: '{"language":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it('accepts and declines invitations', async () => {
    const accepted = await api.request(
      'POST',
      `/api/users/v1/me/accounts/${DEMO_ACCOUNTS.beispiel}/invitation/accept`,
      {
        as: 'employee',
      },
    );
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({
      uuid: DEMO_ACCOUNTS.beispiel,
      invitationStatus: 'ACCEPTED',
    });
    const twice = await api.request(
      'POST',
      `/api/users/v1/me/accounts/${DEMO_ACCOUNTS.beispiel}/invitation/accept`,
      {
        as: 'employee',
      },
    );
    expect(twice.statusCode).toBe(409);
    const none = await api.request(
      'POST',
      `/api/users/v1/me/accounts/${DEMO_ACCOUNTS.neu}/invitation/decline`,
      {
        as: 'employee',
      },
    );
    expect(none.statusCode).toBe(404);
    expect((await api.audit(DEMO_ACCOUNTS.beispiel))[0]).toMatchObject({ action: 'invitation.accept' });
  });
});

describeApi('leaving an account', (api) => {
  const leave = (account: string, as: DemoLogin) =>
    api.request('DELETE', `/api/users/v1/me/accounts/${account}`, { as });

  /** A new account of `fresh` with members of these roles. */
  async function accountWith(members: [DemoLogin, string][]): Promise<string> {
    const res = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'fresh',
      body: { name: `Team ${crypto.randomUUID().slice(0, 8)}`, country: 'CH', preferredLanguage: 'de' },
    });
    const uuid: string = res.json().data.uuid;
    for (const [login, role] of members) {
      await api.db.query('insert into account_members (account_uuid, user_uuid, role) values ($1, $2, $3)', [
        uuid,
        DEMO_USERS[login].id,
        role,
      ]);
    }
    return uuid;
  }

  const membersOf = async (account: string) =>
    (
      await api.db.query<{ user_uuid: string }>(
        'select user_uuid from account_members where account_uuid = $1',
        [account],
      )
    ).rows.map((row) => row.user_uuid);

  it('lets a member leave: the membership is gone, audited, and the account is no longer theirs', async () => {
    const account = await accountWith([['employee', 'EMPLOYEE']]);
    const res = await leave(account, 'employee');
    expect(res.statusCode).toBe(204);
    expect(await membersOf(account)).toEqual([DEMO_USERS.fresh.id]);
    const [entry] = await api.audit(account);
    expect(entry).toMatchObject({
      action: 'member.leave',
      actor_uuid: DEMO_USERS.employee.id,
      target: `user:${DEMO_USERS.employee.id}`,
    });
    expect(entry!.client_address).toBeTruthy();
    const mine = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'employee' })).json().data;
    expect(mine.map((a: { uuid: string }) => a.uuid)).not.toContain(account);
    const read = await api.request('GET', `/api/accounts/v1/accounts/${account}`, { as: 'employee' });
    expect(read.statusCode).toBe(404);
    expect((await leave(account, 'employee')).statusCode).toBe(404);
  });

  it('refuses the owner (409: transfer first) and anyone who is no member (404)', async () => {
    const account = await accountWith([['admin', 'ADMIN']]);
    const owner = await leave(account, 'fresh');
    expect(owner.statusCode).toBe(409);
    expect(owner.json().message).toMatch(/transfer the ownership/);
    expect((await leave(account, 'inhaber')).statusCode).toBe(404);
    expect((await leave(crypto.randomUUID(), 'inhaber')).statusCode).toBe(404);
    expect((await membersOf(account)).sort()).toEqual([DEMO_USERS.fresh.id, DEMO_USERS.admin.id].sort());
    expect((await api.audit(account)).map((e) => e.action)).toEqual(['account.create']);
  });
});

import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type TestApi } from '../../test/api.ts';

const base = (account: string = DEMO_ACCOUNTS.muster) => `/api/accounts/${account}/members/v1`;
const linkUrl = (token: string) => `/api/members/v1/invitation-links/${token}`;

/** A person the portal does not know yet, signing in with a token of their own. */
const stranger = (email: string) => ({ sub: `sub-${email}`, email, name: '', email_verified: true });

interface Row {
  id: string;
  email: string;
  role: string;
  status: string;
  kind: string;
  invitedBy: string | null;
  name: string;
}

async function list(
  api: TestApi,
  query = '',
  as: 'admin' | 'owner' = 'admin',
): Promise<{ data: Row[]; meta: { total: number } }> {
  const res = await api.request('GET', `${base()}/members${query}`, { as });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The newest mail to `to` from the demo outbox, and the token of its invitation link. */
async function lastMail(api: TestApi, to: string) {
  const mail = (await api.mailsTo(to)).at(-1)!;
  const link = /https?:\/\/\S+\/invite\/verify\?\S+/.exec(mail.text_body)![0];
  return { ...mail, link, token: new URL(link).searchParams.get('token')! };
}

async function invite(api: TestApi, emails: string[], role = 'EMPLOYEE', extra: object = {}) {
  return api.request('POST', `${base()}/invitations`, { as: 'admin', body: { emails, role, ...extra } });
}

describeApi('members API', (api) => {
  it('lists members and open or expired invitations, coaches in their own section', async () => {
    const { data, meta } = await list(api);
    expect(meta).toEqual({ total: 6, page: 1, pageSize: 25 });
    const byEmail = Object.fromEntries(data.map((row) => [row.email, row]));
    expect(byEmail['owner@example.com']).toMatchObject({ kind: 'MEMBER', role: 'OWNER', status: 'ACCEPTED' });
    expect(byEmail['employee@example.com']).toMatchObject({ role: 'EMPLOYEE', invitedBy: 'Olivia Owner' });
    expect(byEmail['lea.lehmann@example.com']).toMatchObject({ kind: 'INVITATION', status: 'PENDING' });
    expect(byEmail['marco.meier@example.com']).toMatchObject({ kind: 'INVITATION', status: 'EXPIRED' });
    expect(data.find((row) => row.email === 'admin@example.com')).toMatchObject({ isSelf: true });
    expect(byEmail['coach@example.com']).toBeUndefined();
    const coaches = await list(api, '?section=coaches');
    expect(coaches.data.map((row) => row.email)).toEqual(['coach@example.com']);
  });

  it('shows when a member last signed in, moving only forward', async () => {
    const lastSignIn = async () => {
      const res = await api.request('GET', `${base()}/members/${DEMO_USERS.unverified.id}`, { as: 'admin' });
      return res.json().data.lastSignInAt as string | null;
    };
    const signInAt = async (issuedAt: number) => {
      const token = await api.token('unverified', { issuedAt });
      await api.request('GET', '/api/users/v1/me', { token });
    };
    await signInAt(-600);
    const first = await lastSignIn();
    expect(Date.now() - Date.parse(first!)).toBeGreaterThan(590_000);
    await signInAt(-3600); // an older token (another tab) changes nothing
    expect(await lastSignIn()).toBe(first);
    await signInAt(-60);
    expect(Date.parse((await lastSignIn())!)).toBeGreaterThan(Date.parse(first!));
  });

  it('pages, searches and filters on the server', async () => {
    const page = await list(api, '?pageSize=2&page=2');
    expect(page.data).toHaveLength(2);
    expect(page.meta).toEqual({ total: 6, page: 2, pageSize: 2 });
    expect((await list(api, '?search=EMMA')).data.map((r) => r.email)).toEqual(['employee@example.com']);
    expect((await list(api, '?search=%25')).data).toEqual([]);
    // A page past the end of a search still counts what the search found.
    const past = await list(api, '?search=example&pageSize=2&page=9');
    expect(past).toMatchObject({ data: [], meta: { total: 6, page: 9 } });
    expect((await list(api, '?search=example&pageSize=2&page=2')).meta.total).toBe(6);
    expect((await list(api, '?role=ADMIN')).data.map((r) => r.email).sort()).toEqual([
      'admin@example.com',
      'marco.meier@example.com',
    ]);
    expect((await list(api, '?status=EXPIRED')).data.map((r) => r.email)).toEqual([
      'marco.meier@example.com',
    ]);
    const tooBig = await api.request('GET', `${base()}/members?pageSize=1000`, { as: 'admin' });
    expect(tooBig.statusCode).toBe(422);
  });

  it('refuses employees (403) and hides other accounts (404)', async () => {
    const { data } = await list(api);
    const employee = data.find((row) => row.email === 'employee@example.com')!;
    const calls: [string, string, unknown?][] = [
      ['GET', `${base()}/members`],
      ['GET', `${base()}/members/${employee.id}`],
      ['PATCH', `${base()}/members/${employee.id}`, { role: 'ADMIN' }],
      ['DELETE', `${base()}/members/${employee.id}`],
      ['POST', `${base()}/invitations`, { emails: ['x@example.com'], role: 'EMPLOYEE' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await api.request(method as 'GET', url, { as: 'employee', body });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const other = await api.request('GET', `${base(DEMO_ACCOUNTS.neu)}/members`, { as: 'admin' });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('newowner@example.com');
    // A member of another account cannot reach this account's member by id either.
    const foreign = await api.request('GET', `${base(DEMO_ACCOUNTS.neu)}/members/${employee.id}`, {
      as: 'newowner',
    });
    expect(foreign.statusCode).toBe(404);
    // Nothing changed.
    expect((await list(api)).meta.total).toBe(6);
  });

  it('invites several addresses, mails each a localised one-time link, audits each', async () => {
    const res = await invite(api, ['Anna.Berger@Example.com', ' bert@example.com'], 'ADMIN');
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject([
      { email: 'anna.berger@example.com', role: 'ADMIN', status: 'PENDING', invitedBy: 'Adrian Admin' },
      { email: 'bert@example.com', role: 'ADMIN', status: 'PENDING' },
    ]);
    const mail = await lastMail(api, 'anna.berger@example.com');
    // Nobody knows this address yet: the mail speaks the account's language.
    expect(mail.subject).toBe('Portal: Einladung zu Muster AG');
    expect(mail.text_body).toContain(
      'Adrian Admin lädt Sie ein, dem Konto «Muster AG» als Administrator/in beizutreten.',
    );
    expect(mail.text_body).toContain('7 Tage');
    expect(mail.html_body).toContain('href="http://portal.test/invite/verify?token=');
    expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a hash of the token is stored.
    const stored = await api.db.query('select 1 from invitations where token_hash = $1', [mail.token]);
    expect(stored.rows).toHaveLength(0);
    const audit = await api.audit(DEMO_ACCOUNTS.muster);
    expect(audit.slice(0, 2).map((entry) => entry.action)).toEqual(['member.invite', 'member.invite']);
    expect(audit[0]).toMatchObject({ actor_uuid: DEMO_USERS.admin.id, client_address: expect.any(String) });
  });

  it('mails a known person in their own language', async () => {
    const res = await api.request('POST', `${base(DEMO_ACCOUNTS.neu)}/invitations`, {
      as: 'newowner',
      body: { emails: ['unverified@example.com'], role: 'EMPLOYEE' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await lastMail(api, 'unverified@example.com');
    expect(mail.subject).toBe('Portal: Invitation to Neu Sàrl');
  });

  it('names every address that is already a member or already invited, and invites nobody', async () => {
    await invite(api, ['dora@example.com']);
    const before = (await list(api)).meta.total;
    const res = await invite(api, ['new1@example.com', 'EMPLOYEE@example.com', 'dora@example.com']);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('employee@example.com is already a member'),
      details: { fields: { 'emails.1': 'alreadyMember', 'emails.2': 'alreadyInvited' } },
    });
    expect(res.json().message).toContain('dora@example.com is already invited');
    expect((await list(api)).meta.total).toBe(before);
    const invalid = await invite(api, ['ok@example.com', 'not-an-address']);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().details.fields).toEqual({ 'emails.1': 'email' });
    const owner = await invite(api, ['boss@example.com'], 'OWNER');
    expect(owner.statusCode).toBe(422);
    const twice = await invite(api, ['same@example.com', 'SAME@example.com']);
    expect(twice.statusCode).toBe(422);
    expect((await list(api)).meta.total).toBe(before);
  });

  it('replaces an expired invitation when the address is invited again', async () => {
    const res = await invite(api, ['marco.meier@example.com'], 'EMPLOYEE');
    expect(res.statusCode).toBe(201);
    const rows = (await list(api, '?search=marco')).data;
    expect(rows).toMatchObject([{ status: 'PENDING', role: 'EMPLOYEE' }]);
  });

  it('lets the invited address accept through the link; the link is then used', async () => {
    await invite(api, ['new.person@example.com'], 'ADMIN');
    const { token } = await lastMail(api, 'new.person@example.com');
    const invited = stranger('new.person@example.com');
    const view = await api.request('GET', linkUrl(token), { as: invited });
    expect(view.json().data).toMatchObject({
      accountUuid: DEMO_ACCOUNTS.muster,
      accountName: 'Muster AG',
      role: 'ADMIN',
      invitedBy: 'Adrian Admin',
      status: 'PENDING',
      forYou: true,
    });
    // Someone else holding the link sees whom it is for, and cannot answer it.
    const other = await api.request('GET', linkUrl(token), { as: 'fresh' });
    expect(other.json().data).toMatchObject({ forYou: false, email: 'new.person@example.com' });
    const refused = await api.request('POST', `${linkUrl(token)}/accept`, { as: 'fresh' });
    expect(refused.statusCode).toBe(403);

    const accepted = await api.request('POST', `${linkUrl(token)}/accept`, { as: invited });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({
      uuid: DEMO_ACCOUNTS.muster,
      accountRole: 'ADMIN',
      invitationStatus: 'ACCEPTED',
    });
    const account = await api.request('GET', `/api/accounts/v1/accounts/${DEMO_ACCOUNTS.muster}`, {
      as: invited,
    });
    expect(account.statusCode).toBe(200);
    const again = await api.request('POST', `${linkUrl(token)}/accept`, { as: invited });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('INVITATION_USED');
    expect((await api.request('GET', linkUrl(token), { as: invited })).json().data.status).toBe('USED');
    expect((await api.audit(DEMO_ACCOUNTS.muster))[0]).toMatchObject({ action: 'invitation.accept' });
  });

  it('explains expired, revoked and replaced links; an unknown link is 404', async () => {
    await invite(api, ['late@example.com', 'gone@example.com', 'again@example.com']);
    const late = (await lastMail(api, 'late@example.com')).token;
    const gone = (await lastMail(api, 'gone@example.com')).token;
    const first = (await lastMail(api, 'again@example.com')).token;
    await api.db.query(`update invitations set expires_at = now() - interval '1 minute' where email = $1`, [
      'late@example.com',
    ]);
    const expired = await api.request('POST', `${linkUrl(late)}/accept`, {
      as: stranger('late@example.com'),
    });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().code).toBe('INVITATION_EXPIRED');
    const rows = (await list(api, '?search=example.com&pageSize=100')).data;
    const id = (email: string) => rows.find((row) => row.email === email)!.id;
    expect(rows.find((row) => row.email === 'late@example.com')!.status).toBe('EXPIRED');

    expect(
      (await api.request('DELETE', `${base()}/invitations/${id('gone@example.com')}`, { as: 'admin' }))
        .statusCode,
    ).toBe(204);
    const revoked = await api.request('POST', `${linkUrl(gone)}/accept`, {
      as: stranger('gone@example.com'),
    });
    expect(revoked.json().code).toBe('INVITATION_REVOKED');
    expect((await api.request('GET', linkUrl(gone), { as: 'fresh' })).json().data.status).toBe('REVOKED');

    const resent = await api.request('POST', `${base()}/invitations/${id('again@example.com')}/resend`, {
      as: 'admin',
    });
    expect(resent.statusCode).toBe(200);
    const second = (await lastMail(api, 'again@example.com')).token;
    expect(second).not.toBe(first);
    const old = await api.request('POST', `${linkUrl(first)}/accept`, { as: stranger('again@example.com') });
    expect(old.json().code).toBe('INVITATION_REVOKED');
    const fresh = await api.request('POST', `${linkUrl(second)}/decline`, {
      as: stranger('again@example.com'),
    });
    expect(fresh.statusCode).toBe(204);

    const unknown = await api.request('GET', linkUrl('A'.repeat(43)), { as: 'fresh' });
    expect(unknown.statusCode).toBe(404);
    const actions = (await api.audit(DEMO_ACCOUNTS.muster)).slice(0, 3).map((entry) => entry.action);
    expect(actions).toEqual(['invitation.decline', 'invitation.resend', 'invitation.revoke']);
  });

  it('shows an open invitation in the invited user’s accounts list, answerable there', async () => {
    await invite(api, ['fresh@example.com']);
    const mine = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'fresh' })).json().data;
    expect(mine).toMatchObject([
      { uuid: DEMO_ACCOUNTS.muster, invitationStatus: 'PENDING', accountRole: 'EMPLOYEE' },
    ]);
    // No data until accepted.
    const early = await api.request('GET', `/api/accounts/v1/accounts/${DEMO_ACCOUNTS.muster}`, {
      as: 'fresh',
    });
    expect(early.statusCode).toBe(404);
    const accepted = await api.request(
      'POST',
      `/api/users/v1/me/accounts/${DEMO_ACCOUNTS.muster}/invitation/accept`,
      { as: 'fresh' },
    );
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({ invitationStatus: 'ACCEPTED', accountRole: 'EMPLOYEE' });
  });

  it('changes roles between EMPLOYEE and ADMIN, never the owner, a coach or oneself', async () => {
    const { data } = await list(api, '?pageSize=100');
    const id = (email: string) => data.find((row) => row.email === email)!.id;
    const url = (email: string) => `${base()}/members/${id(email)}`;
    const raised = await api.request('PATCH', url('unverified@example.com'), {
      as: 'admin',
      body: { role: 'ADMIN' },
    });
    expect(raised.statusCode).toBe(200);
    expect(raised.json().data).toMatchObject({ role: 'ADMIN' });
    expect(
      await api.db.query(
        `select before, after from audit_log where action = 'member.role.change' order by id desc limit 1`,
      ),
    ).toMatchObject({ rows: [{ before: { role: 'EMPLOYEE' }, after: { role: 'ADMIN' } }] });
    const above = await api.request('PATCH', url('employee@example.com'), {
      as: 'admin',
      body: { role: 'OWNER' },
    });
    expect(above.statusCode).toBe(422);
    const dc = await api.request('PATCH', url('employee@example.com'), { as: 'admin', body: { role: 'DC' } });
    expect(dc.statusCode).toBe(422);
    const owner = await api.request('PATCH', url('owner@example.com'), {
      as: 'admin',
      body: { role: 'EMPLOYEE' },
    });
    expect(owner.statusCode).toBe(403);
    const self = await api.request('PATCH', url('admin@example.com'), {
      as: 'admin',
      body: { role: 'EMPLOYEE' },
    });
    expect(self.statusCode).toBe(403);
    const coaches = await list(api, '?section=coaches');
    const coach = await api.request('PATCH', `${base()}/members/${coaches.data[0]!.id}`, {
      as: 'admin',
      body: { role: 'ADMIN' },
    });
    expect(coach.statusCode).toBe(403);
    const invitation = await api.request('PATCH', `${base()}/members/${id('lea.lehmann@example.com')}`, {
      as: 'admin',
      body: { role: 'ADMIN' },
    });
    expect(invitation.statusCode).toBe(404);
    // Back as it was.
    await api.request('PATCH', url('unverified@example.com'), { as: 'admin', body: { role: 'EMPLOYEE' } });
  });

  it('applies concurrent role changes one after the other (row lock): each audit entry starts where the last ended', async () => {
    const { data } = await list(api, '?search=unverified');
    const url = `${base()}/members/${data[0]!.id}`;
    const roles = ['ADMIN', 'EMPLOYEE', 'ADMIN', 'EMPLOYEE', 'ADMIN', 'EMPLOYEE', 'ADMIN', 'EMPLOYEE'];
    const results = await Promise.all(
      roles.map((role, i) => api.request('PATCH', url, { as: i % 2 ? 'admin' : 'owner', body: { role } })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(roles.map(() => 200));
    const { rows } = await api.db.query<{ before: { role: string }; after: { role: string } }>(
      `select before, after from audit_log where action = 'member.role.change' and target = $1 order by id`,
      [`user:${data[0]!.id}`],
    );
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.before.role).toBe(rows[i - 1]!.after.role);
    for (const row of rows) expect(row.before.role).not.toBe(row.after.role);
    const final = await api.request('GET', url, { as: 'admin' });
    expect(final.json().data.role).toBe(rows.at(-1)!.after.role);
  });

  it('removes a member after the rules: not the owner, not oneself', async () => {
    const { data } = await list(api, '?pageSize=100');
    const id = (email: string) => data.find((row) => row.email === email)!.id;
    expect(
      (await api.request('DELETE', `${base()}/members/${id('owner@example.com')}`, { as: 'admin' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await api.request('DELETE', `${base()}/members/${id('admin@example.com')}`, { as: 'admin' }))
        .statusCode,
    ).toBe(403);
    const removed = await api.request('DELETE', `${base()}/members/${id('unverified@example.com')}`, {
      as: 'admin',
    });
    expect(removed.statusCode).toBe(204);
    const access = await api.request('GET', `/api/accounts/v1/accounts/${DEMO_ACCOUNTS.muster}`, {
      as: 'unverified',
    });
    expect(access.statusCode).toBe(404);
    expect((await api.audit(DEMO_ACCOUNTS.muster))[0]).toMatchObject({
      action: 'member.remove',
      target: `user:${DEMO_USERS.unverified.id}`,
    });
  });

  it('invites a digital coach with a note the mail carries; a note with a link is refused', async () => {
    const res = await api.request('POST', `${base()}/invitations`, {
      as: 'admin',
      body: {
        emails: ['treuhand@example.com'],
        role: 'DC',
        note: 'Bitte prüfen Sie unsere Buchhaltung bis Ende Monat.',
      },
    });
    expect(res.statusCode).toBe(201);
    const mail = await lastMail(api, 'treuhand@example.com');
    expect(mail.text_body).toContain(
      'Nachricht von Adrian Admin:\n\nBitte prüfen Sie unsere Buchhaltung bis Ende Monat.',
    );
    expect(mail.text_body).toContain('als Digital Coach');
    expect((await list(api, '?section=coaches')).data.map((row) => row.email)).toContain(
      'treuhand@example.com',
    );
    const link = await api.request('POST', `${base()}/invitations`, {
      as: 'admin',
      body: { emails: ['x2@example.com'], role: 'DC', note: 'see evil.example/login' },
    });
    expect(link.statusCode).toBe(422);
    expect(link.json().details.fields).toEqual({ note: 'noLinks' });
  });

  it('limits the invitations an account sends per hour (429)', async () => {
    const send = (from: number) =>
      api.request('POST', `${base(DEMO_ACCOUNTS.neu)}/invitations`, {
        as: 'newowner',
        body: {
          emails: Array.from({ length: 20 }, (_, i) => `bulk${from + i}@example.com`),
          role: 'EMPLOYEE',
        },
      });
    expect((await send(0)).statusCode).toBe(201);
    expect((await send(20)).statusCode).toBe(201);
    const third = await send(40);
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('TOO_MANY_REQUESTS');
  });
});

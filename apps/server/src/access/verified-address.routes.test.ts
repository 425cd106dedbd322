import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../demo/users.ts';
import { createTeam } from '../test/team.ts';
import { describeApi, type TestApi } from '../test/api.ts';

// A person is bound to an account by address only when that address is verified (decision 193): someone who
// registered an invited address without proving it gets no seat, by the accounts list nor by the mail's link, and
// no ownership. The link's own proof (registering through it) is tested with the sign-in service
// (idp/registration.test.ts).

const muster = DEMO_ACCOUNTS.muster;
const linkUrl = (token: string) => `/api/members/v1/invitation-links/${token}`;
const byAccount = (account: string, answer: 'accept' | 'decline') =>
  `/api/users/v1/me/accounts/${account}/invitation/${answer}`;

/** A person who registered `email` at the identity provider; `verified` says whether they proved it. */
const claimant = (email: string, verified: boolean) => ({
  sub: `sub-${email}`,
  email,
  name: 'Mallory Claimant',
  email_verified: verified,
});

/** Muster AG's admin invites `email` with `role`; the token of the mailed link. */
async function invite(api: TestApi, email: string, role = 'ADMIN'): Promise<string> {
  const res = await api.request('POST', `/api/accounts/${muster}/members/v1/invitations`, {
    as: 'admin',
    body: { emails: [email], role },
  });
  expect(res.statusCode).toBe(201);
  const mail = (await api.mailsTo(email)).at(-1)!;
  const link = /https?:\/\/\S+\/invite\/verify\?\S+/.exec(mail.text_body)![0];
  return new URL(link).searchParams.get('token')!;
}

async function invitationStatus(api: TestApi, email: string): Promise<string | undefined> {
  const { rows } = await api.db.query<{ status: string }>(
    'select status from invitations where account_uuid = $1 and email = $2 order by invited_at desc limit 1',
    [muster, email],
  );
  return rows[0]?.status;
}

async function isMember(api: TestApi, email: string): Promise<boolean> {
  const { rows } = await api.db.query(
    `select 1 from account_members m join users u on u.uuid = m.user_uuid
      where m.account_uuid = $1 and u.email = $2`,
    [muster, email],
  );
  return rows.length > 0;
}

describeApi('a seat only for a verified address', (api) => {
  it('refuses an unverified address on the account path: no seat, no members, no billing, the invitation stays open', async () => {
    const email = 'seat.account@example.com';
    await invite(api, email, 'ADMIN');
    const mallory = claimant(email, false);
    // The accounts list does not offer it.
    const mine = await api.request('GET', '/api/users/v1/me/accounts', { as: mallory });
    expect(mine.json().data).toEqual([]);
    // Nor does the account path answer it.
    for (const answer of ['accept', 'decline'] as const) {
      const res = await api.request('POST', byAccount(muster, answer), { as: mallory });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    }
    expect(await isMember(api, email)).toBe(false);
    expect(await invitationStatus(api, email)).toBe('PENDING');
    const members = await api.request('GET', `/api/accounts/${muster}/members/v1/members`, { as: mallory });
    expect(members.statusCode).toBe(404);
    const billing = await api.request('GET', `/api/accounts/${muster}/billing/v1/details`, { as: mallory });
    expect(billing.statusCode).toBe(404);
  });

  it('refuses an unverified address on the link path, even holding the token', async () => {
    const email = 'seat.link@example.com';
    const token = await invite(api, email, 'ADMIN');
    const mallory = claimant(email, false);
    // The link shows whom it is for; answering it needs the proved address.
    const view = await api.request('GET', linkUrl(token), { as: mallory });
    expect(view.json().data).toMatchObject({ forYou: true, status: 'PENDING' });
    for (const answer of ['accept', 'decline'] as const) {
      const res = await api.request('POST', `${linkUrl(token)}/${answer}`, { as: mallory });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    }
    expect(await isMember(api, email)).toBe(false);
    expect(await invitationStatus(api, email)).toBe('PENDING');
    const audit = await api.audit(muster);
    expect(audit[0]).toMatchObject({ action: 'member.invite' });
  });

  it('seats the same person once the address is verified, by link or by account', async () => {
    const byLink = 'seat.verified.link@example.com';
    const token = await invite(api, byLink, 'ADMIN');
    expect(
      (await api.request('POST', `${linkUrl(token)}/accept`, { as: claimant(byLink, false) })).statusCode,
    ).toBe(403);
    const accepted = await api.request('POST', `${linkUrl(token)}/accept`, { as: claimant(byLink, true) });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({
      uuid: muster,
      accountRole: 'ADMIN',
      invitationStatus: 'ACCEPTED',
    });
    expect(await isMember(api, byLink)).toBe(true);

    const byAccountEmail = 'seat.verified.account@example.com';
    await invite(api, byAccountEmail, 'EMPLOYEE');
    const verified = claimant(byAccountEmail, true);
    const mine = await api.request('GET', '/api/users/v1/me/accounts', { as: verified });
    expect(mine.json().data).toMatchObject([{ uuid: muster, invitationStatus: 'PENDING' }]);
    const res = await api.request('POST', byAccount(muster, 'accept'), { as: verified });
    expect(res.statusCode).toBe(200);
    expect(await isMember(api, byAccountEmail)).toBe(true);
  });

  it('tells only a verified address about a new invitation in its inbox', async () => {
    await api.app.jobs.drain();
    await api.db.query('delete from notifications');
    const res = await api.request('POST', `/api/accounts/${DEMO_ACCOUNTS.beispiel}/members/v1/invitations`, {
      as: 'inhaber',
      body: { emails: [DEMO_USERS.unverified.email, DEMO_USERS.fresh.email], role: 'EMPLOYEE' },
    });
    expect(res.statusCode).toBe(201);
    const { rows } = await api.db.query<{ user_uuid: string }>(
      `select user_uuid from notifications where type = 'invitation.received'`,
    );
    expect(rows.map((row) => row.user_uuid)).toEqual([DEMO_USERS.fresh.id]);
  });

  it('offers the ownership only to an admin with a verified address, and lets only a verified one accept', async () => {
    const account = await createTeam(api, { owner: 'OWNER', unverified: 'ADMIN', admin: 'ADMIN' });
    const transfers = `/api/accounts/${account.uuid}/ownership/v1/transfers`;
    const candidates = await api.request('GET', `/api/accounts/${account.uuid}/ownership/v1/candidates`, {
      as: 'owner',
    });
    expect(candidates.json().data.map((person: { uuid: string }) => person.uuid)).toEqual([
      DEMO_USERS.admin.id,
    ]);
    const refused = await api.request('POST', transfers, {
      as: 'owner',
      body: { toUserUuid: DEMO_USERS.unverified.id, confirmAccountName: account.name },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details.fields).toEqual({ toUserUuid: 'emailNotVerified' });
    const { rows } = await api.db.query('select 1 from ownership_transfers where account_uuid = $1', [
      account.uuid,
    ]);
    expect(rows).toHaveLength(0);

    // An offer to an admin whose address is no longer verified (a change at an external provider) cannot be
    // accepted until it is verified again.
    const started = await api.request('POST', transfers, {
      as: 'owner',
      body: { toUserUuid: DEMO_USERS.admin.id, confirmAccountName: account.name },
    });
    expect(started.statusCode).toBe(201);
    const uuid = started.json().data.uuid as string;
    const unverifiedAdmin = await api.token('admin', { claims: { email_verified: false } });
    const accept = await api.request('POST', `${transfers}/${uuid}/accept`, { token: unverifiedAdmin });
    expect(accept.statusCode).toBe(403);
    expect(accept.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    const owners = await api.db.query<{ user_uuid: string }>(
      `select user_uuid from account_members where account_uuid = $1 and role = 'OWNER'`,
      [account.uuid],
    );
    expect(owners.rows).toEqual([{ user_uuid: DEMO_USERS.owner.id }]);
    const verified = await api.request('POST', `${transfers}/${uuid}/accept`, { as: 'admin' });
    expect(verified.statusCode).toBe(200);
  });
});

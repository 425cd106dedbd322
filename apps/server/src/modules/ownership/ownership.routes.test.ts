import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { DEMO_USERS } from '../../demo/users.ts';
import { createTeam } from '../../test/team.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { allowStaff } from '../../test/support-tickets.ts';

const base = (account: string) => `/api/accounts/${account}/ownership/v1`;
const id = (login: DemoLogin) => DEMO_USERS[login].id;

const team = createTeam;

async function roles(api: TestApi, account: string): Promise<Record<string, string>> {
  const { rows } = await api.db.query<{ user_uuid: string; role: string }>(
    'select user_uuid, role from account_members where account_uuid = $1',
    [account],
  );
  return Object.fromEntries(rows.map((row) => [row.user_uuid, row.role]));
}

async function owners(api: TestApi, account: string): Promise<string[]> {
  return Object.entries(await roles(api, account))
    .filter(([, role]) => role === 'OWNER')
    .map(([user]) => user);
}

async function start(api: TestApi, account: { uuid: string; name: string }, to: DemoLogin = 'admin') {
  return api.request('POST', `${base(account.uuid)}/transfers`, {
    as: 'owner',
    body: { toUserUuid: id(to), confirmAccountName: account.name },
  });
}

describeApi('ownership API', (api) => {
  it('shows the owner to the owner; admins, employees and staff are refused, other accounts are 404', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const res = await api.request('GET', `${base(account.uuid)}/ownership`, { as: 'owner' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      owner: { uuid: id('owner'), email: DEMO_USERS.owner.email },
      pendingTransfer: null,
    });
    for (const as of ['admin', 'employee'] as const) {
      expect((await api.request('GET', `${base(account.uuid)}/ownership`, { as })).statusCode).toBe(403);
    }
    expect((await api.request('GET', `${base(account.uuid)}/ownership`, { as: 'inhaber' })).statusCode).toBe(
      404,
    );
    // Staff, even once the customer allows them in on a ticket, read only what an ADMIN reads.
    await allowStaff(api, account.uuid, id('owner'));
    expect((await api.request('GET', `${base(account.uuid)}/ownership`, { as: 'agent' })).statusCode).toBe(
      403,
    );
  });

  it('offers only the accepted admins as candidates, searchable, with a capped page size', async () => {
    const account = await team(api, {
      owner: 'OWNER',
      admin: 'ADMIN',
      employee: 'EMPLOYEE',
      inhaber: 'ADMIN',
    });
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status) values ($1, $2, 'ADMIN', 'PENDING')`,
      [account.uuid, id('fresh')],
    );
    const all = await api.request('GET', `${base(account.uuid)}/candidates`, { as: 'owner' });
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((p: { uuid: string }) => p.uuid)).toEqual([id('admin'), id('inhaber')]);
    expect(all.json().meta).toEqual({ total: 2, page: 1, pageSize: 20 });
    const found = await api.request('GET', `${base(account.uuid)}/candidates?search=isab`, { as: 'owner' });
    expect(found.json().data.map((p: { uuid: string }) => p.uuid)).toEqual([id('inhaber')]);
    const wildcard = await api.request('GET', `${base(account.uuid)}/candidates?search=%25`, { as: 'owner' });
    expect(wildcard.json().data).toEqual([]);
    const paged = await api.request('GET', `${base(account.uuid)}/candidates?pageSize=1&page=2`, {
      as: 'owner',
    });
    expect(paged.json()).toMatchObject({ data: [{ uuid: id('inhaber') }], meta: { total: 2, page: 2 } });
    const tooMany = await api.request('GET', `${base(account.uuid)}/candidates?pageSize=500`, {
      as: 'owner',
    });
    expect([400, 422]).toContain(tooMany.statusCode);
    expect((await api.request('GET', `${base(account.uuid)}/candidates`, { as: 'admin' })).statusCode).toBe(
      403,
    );
  });

  it('lets only the owner start a transfer: employees, admins and staff get 403, other accounts 404', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const body = { toUserUuid: id('admin'), confirmAccountName: account.name };
    await allowStaff(api, account.uuid, id('owner'));
    for (const as of ['employee', 'admin', 'agent'] as const) {
      const res = await api.request('POST', `${base(account.uuid)}/transfers`, { as, body });
      expect(res.statusCode).toBe(403);
    }
    const other = await team(api, { inhaber: 'OWNER', admin: 'ADMIN' });
    const foreign = await api.request('POST', `${base(other.uuid)}/transfers`, {
      as: 'owner',
      body: { ...body, confirmAccountName: other.name },
    });
    expect(foreign.statusCode).toBe(404);
    expect(await api.audit(account.uuid)).toEqual([]);
  });

  it('refuses a wrong confirmation and a target that is not an admin of the account (422, nothing changed)', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const url = `${base(account.uuid)}/transfers`;
    const wrongName = await api.request('POST', url, {
      as: 'owner',
      body: { toUserUuid: id('admin'), confirmAccountName: 'Something else' },
    });
    expect(wrongName.statusCode).toBe(422);
    expect(wrongName.json().details.fields).toHaveProperty('confirmAccountName');
    for (const target of ['employee', 'fresh', 'owner'] as const) {
      const res = await api.request('POST', url, {
        as: 'owner',
        body: { toUserUuid: id(target), confirmAccountName: account.name },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().details.fields).toHaveProperty('toUserUuid');
    }
    const { rows } = await api.db.query('select 1 from ownership_transfers where account_uuid = $1', [
      account.uuid,
    ]);
    expect(rows).toEqual([]);
    expect(await api.audit(account.uuid)).toEqual([]);
  });

  it('records the offer, mails the admin in their language, shows it to owner and admin only, one at a time', async () => {
    const account = await team(api, { owner: 'OWNER', inhaber: 'ADMIN', employee: 'EMPLOYEE' });
    // The confirmation is compared trimmed and case-insensitively.
    const res = await api.request('POST', `${base(account.uuid)}/transfers`, {
      as: 'owner',
      body: { toUserUuid: id('inhaber'), confirmAccountName: `  ${account.name.toUpperCase()} ` },
    });
    expect(res.statusCode).toBe(201);
    const transfer = res.json().data;
    expect(transfer).toMatchObject({
      status: 'PENDING',
      accountName: account.name,
      from: { uuid: id('owner') },
      to: { uuid: id('inhaber') },
      decidedAt: null,
    });
    const days = (Date.parse(transfer.expiresAt) - Date.parse(transfer.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const [mail] = await api.mailsTo(DEMO_USERS.inhaber.email);
    // Isabelle reads French.
    expect(mail!.subject).toContain('Reprendre la propriété');
    expect(mail!.text_body).toContain(`?uuid=${account.uuid}`);
    expect(mail!.text_body).toContain(DEMO_USERS.owner.name);

    const seen = async (as: DemoLogin) =>
      (await api.request('GET', `${base(account.uuid)}/transfers/pending`, { as })).json().data;
    expect((await seen('inhaber')).uuid).toBe(transfer.uuid);
    expect((await seen('owner')).uuid).toBe(transfer.uuid);
    expect(await seen('employee')).toBeNull();
    const ownership = await api.request('GET', `${base(account.uuid)}/ownership`, { as: 'owner' });
    expect(ownership.json().data.pendingTransfer.uuid).toBe(transfer.uuid);

    const again = await start(api, account, 'inhaber');
    expect(again.statusCode).toBe(409);
    const [entry] = await api.audit(account.uuid);
    expect(entry).toMatchObject({
      action: 'ownership.transfer.start',
      actor_uuid: id('owner'),
      target: `transfer:${transfer.uuid}`,
    });
    expect(entry!.client_address).toBeTruthy();
  });

  it('lets only the chosen admin answer and only the owner cancel', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', inhaber: 'ADMIN' });
    const transfer = (await start(api, account)).json().data;
    const url = (verb: string) => `${base(account.uuid)}/transfers/${transfer.uuid}/${verb}`;
    await allowStaff(api, account.uuid, id('owner'));
    for (const as of ['owner', 'inhaber', 'agent'] as const) {
      expect((await api.request('POST', url('accept'), { as })).statusCode).toBe(403);
      expect((await api.request('POST', url('decline'), { as })).statusCode).toBe(403);
    }
    expect((await api.request('POST', url('cancel'), { as: 'admin' })).statusCode).toBe(403);
    const unknown = `${base(account.uuid)}/transfers/${crypto.randomUUID()}/accept`;
    expect((await api.request('POST', unknown, { as: 'admin' })).statusCode).toBe(404);

    const declined = await api.request('POST', url('decline'), { as: 'admin' });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data).toMatchObject({ status: 'DECLINED', decidedAt: expect.any(String) });
    // The owner learns the answer by mail, in her language.
    const [told] = (await api.mailsTo(DEMO_USERS.owner.email)).reverse();
    expect(told!.subject).toBe(`Portal: Adrian Admin hat die Inhaberschaft von «${account.name}» abgelehnt`);
    expect(told!.text_body).toContain(`/settings/ownership?uuid=${account.uuid}`);
    expect((await api.request('POST', url('accept'), { as: 'admin' })).statusCode).toBe(409);
    expect(await owners(api, account.uuid)).toEqual([id('owner')]);

    const next = (await start(api, account)).json().data;
    const cancel = `${base(account.uuid)}/transfers/${next.uuid}/cancel`;
    const cancelled = await api.request('POST', cancel, { as: 'owner' });
    expect(cancelled.json().data.status).toBe('CANCELLED');
    const late = await api.request('POST', `${base(account.uuid)}/transfers/${next.uuid}/accept`, {
      as: 'admin',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/no longer pending/);
    const audit = await api.audit(account.uuid);
    // Staff's tries are logged as their access (support.access); the changes are the owner's and the admin's.
    expect(audit.map((e) => e.action).filter((action) => action.startsWith('ownership.'))).toEqual([
      'ownership.transfer.cancel',
      'ownership.transfer.start',
      'ownership.transfer.decline',
      'ownership.transfer.start',
    ]);
  });

  it('refuses an expired transfer, which no longer blocks a new one', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN' });
    const transfer = (await start(api, account)).json().data;
    await api.db.query(
      `update ownership_transfers set expires_at = now() - interval '1 minute' where uuid = $1`,
      [transfer.uuid],
    );
    const accept = await api.request('POST', `${base(account.uuid)}/transfers/${transfer.uuid}/accept`, {
      as: 'admin',
    });
    expect(accept.statusCode).toBe(409);
    expect(accept.json().message).toMatch(/expired/);
    expect(await owners(api, account.uuid)).toEqual([id('owner')]);
    const pending = await api.request('GET', `${base(account.uuid)}/transfers/pending`, { as: 'admin' });
    expect(pending.json().data).toBeNull();
    expect((await start(api, account)).statusCode).toBe(201);
    const { rows } = await api.db.query<{ status: string }>(
      'select status from ownership_transfers where uuid = $1',
      [transfer.uuid],
    );
    expect(rows[0]!.status).toBe('EXPIRED');
  });

  it('swaps the roles on acceptance; the new owner accepts the terms anew', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const transfer = (await start(api, account)).json().data;
    const res = await api.request('POST', `${base(account.uuid)}/transfers/${transfer.uuid}/accept`, {
      as: 'admin',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('ACCEPTED');
    const [told] = (await api.mailsTo(DEMO_USERS.owner.email)).reverse();
    expect(told!.subject).toBe(`Portal: Adrian Admin hat die Inhaberschaft von «${account.name}» angenommen`);
    expect(told!.text_body).toContain('Sie sind jetzt Administrator dieses Kontos.');
    expect(await roles(api, account.uuid)).toEqual({
      [id('owner')]: 'ADMIN',
      [id('admin')]: 'OWNER',
      [id('employee')]: 'EMPLOYEE',
    });
    const accountOf = async (as: DemoLogin) =>
      (await api.request('GET', `/api/accounts/v1/accounts/${account.uuid}`, { as })).json().data;
    expect(await accountOf('admin')).toMatchObject({
      accountRole: 'OWNER',
      isOwner: true,
      acceptedAgb: false,
    });
    expect(await accountOf('owner')).toMatchObject({ accountRole: 'ADMIN', isOwner: false });
    // The old owner is an admin now: the owner's pages refuse them.
    expect((await api.request('GET', `${base(account.uuid)}/ownership`, { as: 'owner' })).statusCode).toBe(
      403,
    );

    const terms = await api.request('PATCH', `/api/accounts/v1/accounts/${account.uuid}`, {
      as: 'admin',
      body: { acceptedAgb: true, acceptedPrivacyPolicy: true },
    });
    expect(terms.json().data).toMatchObject({ acceptedAgb: true, acceptedPrivacyPolicy: true });
    const actions = (await api.audit(account.uuid)).map((e) => `${e.action} ${e.target}`);
    expect(actions).toEqual([
      'account.terms.accept terms:privacy',
      'account.terms.accept terms:agb',
      `ownership.transfer.accept transfer:${transfer.uuid}`,
      `member.role.change user:${id('admin')}`,
      `member.role.change user:${id('owner')}`,
      `ownership.transfer.start transfer:${transfer.uuid}`,
    ]);
  });

  it('keeps exactly one owner when two accepts, or an accept and a cancel, race', async () => {
    for (let round = 0; round < 4; round++) {
      const account = await team(api, { owner: 'OWNER', admin: 'ADMIN' });
      const transfer = (await start(api, account)).json().data;
      const url = (verb: string) => `${base(account.uuid)}/transfers/${transfer.uuid}/${verb}`;
      const racers =
        round % 2 === 0
          ? [
              api.request('POST', url('accept'), { as: 'admin' }),
              api.request('POST', url('accept'), { as: 'admin' }),
            ]
          : [
              api.request('POST', url('accept'), { as: 'admin' }),
              api.request('POST', url('cancel'), { as: 'owner' }),
            ];
      const [first, second] = (await Promise.all(racers)).map((r) => r.statusCode);
      // One wins; the other finds the transfer decided (409), or — a cancel after the swap — is no owner (403).
      expect([first, second].filter((status) => status === 200)).toHaveLength(1);
      expect([409, 403]).toContain(first === 200 ? second : first);
      const [owner] = await owners(api, account.uuid);
      expect(await owners(api, account.uuid)).toHaveLength(1);
      const accepted = (
        await api.db.query<{ status: string }>('select status from ownership_transfers where uuid = $1', [
          transfer.uuid,
        ])
      ).rows[0]!.status;
      expect(owner).toBe(accepted === 'ACCEPTED' ? id('admin') : id('owner'));
    }
  });

  it('refuses acceptance when the chosen admin is no longer an admin', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN' });
    const transfer = (await start(api, account)).json().data;
    await api.db.query(
      `update account_members set role = 'EMPLOYEE' where account_uuid = $1 and user_uuid = $2`,
      [account.uuid, id('admin')],
    );
    const res = await api.request('POST', `${base(account.uuid)}/transfers/${transfer.uuid}/accept`, {
      as: 'admin',
    });
    // An employee does not pass the route's ADMIN rule.
    expect(res.statusCode).toBe(403);
    await api.db.query(`update account_members set role = 'DC' where account_uuid = $1 and user_uuid = $2`, [
      account.uuid,
      id('admin'),
    ]);
    const dc = await api.request('POST', `${base(account.uuid)}/transfers/${transfer.uuid}/accept`, {
      as: 'admin',
    });
    expect(dc.statusCode).toBe(409);
    expect(await owners(api, account.uuid)).toEqual([id('owner')]);
  });

  it('still has the one-owner index as the last line of defence', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN' });
    await expect(
      api.db.query(`update account_members set role = 'OWNER' where account_uuid = $1 and user_uuid = $2`, [
        account.uuid,
        id('admin'),
      ]),
    ).rejects.toThrow();
  });
});

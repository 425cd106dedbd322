import crypto from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, TERMS_VERSION } from '@portal/contract';
import { DEMO_USERS } from '../../demo/users.ts';
import { createTeam } from '../../test/team.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { createNotifier } from '../../notifications/notifier.ts';
import { notifyTermsToAccept } from './notifications.service.ts';

const id = (login: DemoLogin) => DEMO_USERS[login].id;
const inbox = (account: string) => `/api/accounts/${account}/notifications/v1`;

const team = createTeam;

interface Row {
  user_uuid: string;
  account_uuid: string | null;
  type: string;
  params: Record<string, unknown>;
}

async function written(api: TestApi): Promise<Row[]> {
  const { rows } = await api.db.query<Row>(
    'select user_uuid, account_uuid, type, params from notifications order by id',
  );
  return rows;
}

async function count(api: TestApi, account: string, as: DemoLogin): Promise<number> {
  const res = await api.request('GET', `${inbox(account)}/unread-count`, { as });
  expect(res.statusCode).toBe(200);
  return res.json().data.count;
}

/** Notifications written straight into the table (type, account or null, read or not), oldest first. */
async function insert(
  api: TestApi,
  user: DemoLogin,
  account: string | null,
  items: { type?: string; read?: boolean }[],
): Promise<string[]> {
  const uuids: string[] = [];
  for (const item of items) {
    const { rows } = await api.db.query<{ uuid: string }>(
      `insert into notifications (account_uuid, user_uuid, type, params, read_at)
       values ($1, $2, $3, $4, case when $5 then now() else null end) returning uuid`,
      [
        account,
        id(user),
        item.type ?? 'member.role_changed',
        JSON.stringify({ accountName: 'X', role: 'ADMIN', previousRole: 'EMPLOYEE', changedBy: 'Y' }),
        item.read ?? false,
      ],
    );
    uuids.push(rows[0]!.uuid);
  }
  return uuids;
}

describeApi('notifications API', (api) => {
  beforeEach(async () => {
    // Jobs of the start (the terms check) finish first; each test then starts from an empty inbox and outbox.
    await api.app.jobs.drain();
    await api.db.query('delete from notifications');
    await api.db.query('delete from notification_preferences');
    await api.db.query('delete from mail_outbox');
  });

  it('invitation received: one personal notification to the invited portal user, no mail beside the invitation', async () => {
    const account = await team(api, { owner: 'OWNER' });
    const res = await api.request('POST', `/api/accounts/${account.uuid}/members/v1/invitations`, {
      as: 'owner',
      body: { emails: ['inhaber@example.com', 'nobody-yet@example.com'], role: 'ADMIN' },
    });
    expect(res.statusCode).toBe(201);
    const rows = await written(api);
    expect(rows).toEqual([
      {
        user_uuid: id('inhaber'),
        account_uuid: null,
        type: 'invitation.received',
        params: { accountName: account.name, invitedBy: DEMO_USERS.owner.name, role: 'ADMIN' },
      },
    ]);
    // The invitation mail (with its link) is the one mail; the notification adds none.
    const mails = await api.mailsTo('inhaber@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.html_body).not.toContain('/inbox/');
  });

  it('invitation accepted and declined: one notification to each admin and the owner, not to the one answering', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    for (const email of ['inhaber@example.com', 'newowner@example.com']) {
      const res = await api.request('POST', `/api/accounts/${account.uuid}/members/v1/invitations`, {
        as: 'owner',
        body: { emails: [email], role: 'EMPLOYEE' },
      });
      expect(res.statusCode).toBe(201);
    }
    await api.db.query('delete from notifications');
    const accept = await api.request('POST', `/api/users/v1/me/accounts/${account.uuid}/invitation/accept`, {
      as: 'inhaber',
    });
    expect(accept.statusCode).toBe(200);
    const decline = await api.request(
      'POST',
      `/api/users/v1/me/accounts/${account.uuid}/invitation/decline`,
      { as: 'newowner' },
    );
    expect(decline.statusCode).toBe(204);
    const rows = await written(api);
    const accepted = rows.filter((r) => r.type === 'invitation.accepted');
    const declined = rows.filter((r) => r.type === 'invitation.declined');
    expect(accepted.map((r) => r.user_uuid).sort()).toEqual([id('owner'), id('admin')].sort());
    expect(declined.map((r) => r.user_uuid).sort()).toEqual([id('owner'), id('admin')].sort());
    expect(accepted[0]).toMatchObject({
      account_uuid: account.uuid,
      params: { email: 'inhaber@example.com', name: DEMO_USERS.inhaber.name, role: 'EMPLOYEE' },
    });
    expect(declined[0]!.params).toEqual({ email: 'newowner@example.com', role: 'EMPLOYEE' });
    expect(rows).toHaveLength(4);
  });

  it('member role changed and member removed: one notification to that member; removal is personal', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const members = `/api/accounts/${account.uuid}/members/v1/members`;
    expect(
      (await api.request('PATCH', `${members}/${id('employee')}`, { as: 'admin', body: { role: 'ADMIN' } }))
        .statusCode,
    ).toBe(200);
    expect((await api.request('DELETE', `${members}/${id('employee')}`, { as: 'owner' })).statusCode).toBe(
      204,
    );
    expect(await written(api)).toEqual([
      {
        user_uuid: id('employee'),
        account_uuid: account.uuid,
        type: 'member.role_changed',
        params: {
          accountName: account.name,
          role: 'ADMIN',
          previousRole: 'EMPLOYEE',
          changedBy: DEMO_USERS.admin.name,
        },
      },
      {
        user_uuid: id('employee'),
        account_uuid: null,
        type: 'member.removed',
        params: { accountName: account.name, removedBy: DEMO_USERS.owner.name },
      },
    ]);
  });

  it('ownership transfer requested, cancelled and accepted: one notification each to the other side', async () => {
    const account = await team(api, { owner: 'OWNER', inhaber: 'ADMIN' });
    const transfers = `/api/accounts/${account.uuid}/ownership/v1/transfers`;
    const start = () =>
      api.request('POST', transfers, {
        as: 'owner',
        body: { toUserUuid: id('inhaber'), confirmAccountName: account.name },
      });
    const first = await start();
    expect(first.statusCode).toBe(201);
    expect(
      (await api.request('POST', `${transfers}/${first.json().data.uuid}/cancel`, { as: 'owner' }))
        .statusCode,
    ).toBe(200);
    const second = await start();
    expect(
      (await api.request('POST', `${transfers}/${second.json().data.uuid}/accept`, { as: 'inhaber' }))
        .statusCode,
    ).toBe(200);
    const rows = await written(api);
    expect(rows.map((r) => [r.type, r.user_uuid])).toEqual([
      ['ownership.transfer_requested', id('inhaber')],
      ['ownership.transfer_cancelled', id('inhaber')],
      ['ownership.transfer_requested', id('inhaber')],
      ['ownership.transfer_accepted', id('owner')],
    ]);
    expect(rows[3]!.params).toEqual({ accountName: account.name, acceptedBy: DEMO_USERS.inhaber.name });
    // The withdrawal is mailed by default, in the reader's language (Isabelle reads French), linking to it; the
    // offer and the answer have mails of their own (the ownership area's), so no second one.
    const cancelled = await api.db.query<{ uuid: string }>(
      `select uuid from notifications where type = 'ownership.transfer_cancelled'`,
    );
    const mails = (await api.mailsTo(DEMO_USERS.inhaber.email)).filter((m) =>
      m.html_body?.includes('/inbox/'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Portal\u00a0: Transfert de «\u00a0${account.name}\u00a0» retiré`);
    expect(mails[0]!.text_body).toContain(
      `Olivia Owner a retiré l’offre de vous transférer la propriété de «\u00a0${account.name}\u00a0».`,
    );
    expect(mails[0]!.text_body).toContain(`/inbox/${cancelled.rows[0]!.uuid}?uuid=${account.uuid}\n`);
    expect(mails[0]!.html_body).toContain('Ouvrir dans le portail');
    const owners = (await api.mailsTo(DEMO_USERS.owner.email)).filter((m) =>
      m.html_body?.includes('/inbox/'),
    );
    expect(owners).toHaveLength(0);
  });

  it('account deletion scheduled and cancelled: one notification to every member', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const url = `/api/accounts/v1/accounts/${account.uuid}`;
    expect((await api.request('DELETE', url, { as: 'owner' })).statusCode).toBe(200);
    // Scheduling again keeps the first date and writes nothing new.
    expect((await api.request('DELETE', url, { as: 'owner' })).statusCode).toBe(200);
    expect(
      (await api.request('PATCH', url, { as: 'owner', body: { availableUntil: null } })).statusCode,
    ).toBe(200);
    const rows = await written(api);
    const everyone = [id('owner'), id('admin'), id('employee')].sort();
    for (const type of ['account.deletion_scheduled', 'account.deletion_cancelled']) {
      expect(
        rows
          .filter((r) => r.type === type)
          .map((r) => r.user_uuid)
          .sort(),
      ).toEqual(everyone);
    }
    expect(rows).toHaveLength(6);
    expect(rows[0]!.params).toMatchObject({ accountName: account.name, scheduledBy: DEMO_USERS.owner.name });
  });

  it('terms to accept: once per version and account, to the owner who has not accepted the current version', async () => {
    // An account whose owner accepted the current version gets nothing.
    const current = await team(api, { owner: 'OWNER' });
    const outdated = await team(api, { inhaber: 'OWNER', admin: 'ADMIN' });
    await api.db.query(`delete from terms_acceptances where account_uuid = $1`, [outdated.uuid]);
    await api.db.query(
      `insert into terms_acceptances (account_uuid, kind, version, accepted_by)
       values ($1, 'agb', '2000-01', $2), ($1, 'privacy', '2000-01', $2), ($1, 'privacy', $3, $2)`,
      [outdated.uuid, id('inhaber'), TERMS_VERSION],
    );
    // A new account in onboarding (nothing accepted yet) is not nagged.
    await api.db.query(`insert into accounts (uuid, name, country) values ($1, 'Fresh', 'CH')`, [
      crypto.randomUUID(),
    ]);
    // The job's work, run twice: the second run finds the notifications written and writes nothing.
    await notifyTermsToAccept(api.db, createNotifier());
    expect(await notifyTermsToAccept(api.db, createNotifier())).toBe(0);
    const ours = (await written(api)).filter((r) =>
      [current.uuid, outdated.uuid].includes(r.account_uuid as typeof current.uuid),
    );
    expect(ours).toEqual([
      {
        user_uuid: id('inhaber'),
        account_uuid: outdated.uuid,
        type: 'terms.to_accept',
        params: { kind: 'agb', version: TERMS_VERSION },
      },
    ]);
  });

  it('lists unread first, then newest, paged with the total; filters unread and type', async () => {
    const account = await team(api, { owner: 'OWNER' });
    const read = await insert(api, 'owner', account.uuid, [{ read: true }, { read: true }]);
    const unread = await insert(api, 'owner', account.uuid, [{}, { type: 'ticket.solved' }, {}]);
    const personal = await insert(api, 'owner', null, [{ type: 'member.removed' }]);
    const page = async (query: string) => {
      const res = await api.request('GET', `${inbox(account.uuid)}/notifications?${query}`, { as: 'owner' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      return { uuids: body.data.map((n: { uuid: string }) => n.uuid), meta: body.meta };
    };
    expect(await page('pageSize=4')).toEqual({
      uuids: [personal[0], unread[2], unread[1], unread[0]],
      meta: { total: 6, page: 1, pageSize: 4 },
    });
    expect(await page('pageSize=4&page=2')).toEqual({
      uuids: [read[1], read[0]],
      meta: { total: 6, page: 2, pageSize: 4 },
    });
    expect((await page('unread=true')).meta.total).toBe(4);
    expect(await page('type=ticket.solved')).toMatchObject({ uuids: [unread[1]], meta: { total: 1 } });
    expect((await page('unread=true&type=member.role_changed')).uuids).toEqual([unread[2], unread[0]]);
    expect(
      (await api.request('GET', `${inbox(account.uuid)}/notifications?type=nope`, { as: 'owner' }))
        .statusCode,
    ).toBe(422);
    expect(
      (await api.request('GET', `${inbox(account.uuid)}/notifications?pageSize=101`, { as: 'owner' }))
        .statusCode,
    ).toBe(422);
  });

  // Issue 23 item 9: the inbox read "Für einem Konto wurde eine Rechnung … ausgestellt".
  it("names an account's notification's account when its parameters do not (as its mail does)", async () => {
    const account = await team(api, { owner: 'OWNER' });
    const { rows } = await api.db.query<{ name: string }>('select name from accounts where uuid = $1', [
      account.uuid,
    ]);
    const [issued] = await insert(api, 'owner', account.uuid, [{ type: 'invoice.issued' }]);
    await api.db.query(`update notifications set params = params - 'accountName' where uuid = $1`, [issued]);
    const [personal] = await insert(api, 'owner', null, [{ type: 'member.removed' }]);
    const res = await api.request('GET', `${inbox(account.uuid)}/notifications`, { as: 'owner' });
    const byUuid = new Map(
      res.json().data.map((n: { uuid: string; params: Record<string, unknown> }) => [n.uuid, n.params]),
    );
    expect(byUuid.get(issued)).toMatchObject({ accountName: rows[0]!.name });
    // Its own name (a personal one names the account it was about) is kept.
    expect(byUuid.get(personal)).toMatchObject({ accountName: 'X' });
    const one = await api.request('GET', `${inbox(account.uuid)}/notifications/${issued}`, { as: 'owner' });
    expect(one.json().data.params.accountName).toBe(rows[0]!.name);
  });

  it("answers 404 for another user's and another account's notification, for reading and changing", async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN' });
    const other = await team(api, { owner: 'OWNER' });
    const [admins] = await insert(api, 'admin', account.uuid, [{}]);
    const [elsewhere] = await insert(api, 'owner', other.uuid, [{}]);
    for (const uuid of [admins, elsewhere]) {
      const url = `${inbox(account.uuid)}/notifications/${uuid}`;
      expect((await api.request('GET', url, { as: 'owner' })).statusCode).toBe(404);
      expect((await api.request('PATCH', url, { as: 'owner', body: { read: true } })).statusCode).toBe(404);
      expect((await api.request('POST', `${url}/archive`, { as: 'owner' })).statusCode).toBe(404);
      expect((await api.request('POST', `${url}/restore`, { as: 'owner' })).statusCode).toBe(404);
    }
    // Nothing changed.
    const { rows } = await api.db.query(
      'select 1 from notifications where read_at is null and archived_at is null',
    );
    expect(rows).toHaveLength(2);
    // The admin reads their own.
    const own = await api.request('GET', `${inbox(account.uuid)}/notifications/${admins}`, { as: 'admin' });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ uuid: admins, type: 'member.role_changed', readAt: null });
  });

  it('keeps the unread count exact after mark read, unread, all read and archive', async () => {
    const account = await team(api, { owner: 'OWNER' });
    const other = await team(api, { owner: 'OWNER' });
    const uuids = await insert(api, 'owner', account.uuid, [{}, {}, {}, {}]);
    await insert(api, 'owner', null, [{}]);
    await insert(api, 'owner', other.uuid, [{}, {}]);
    const url = (uuid: string) => `${inbox(account.uuid)}/notifications/${uuid}`;
    expect(await count(api, account.uuid, 'owner')).toBe(5);
    expect(await count(api, other.uuid, 'owner')).toBe(3);

    const read = await api.request('PATCH', url(uuids[0]!), { as: 'owner', body: { read: true } });
    expect(read.json().data.readAt).not.toBeNull();
    expect(await count(api, account.uuid, 'owner')).toBe(4);
    // Reading it again keeps the first read time and the count.
    const again = await api.request('PATCH', url(uuids[0]!), { as: 'owner', body: { read: true } });
    expect(again.json().data.readAt).toBe(read.json().data.readAt);
    expect(await count(api, account.uuid, 'owner')).toBe(4);
    await api.request('PATCH', url(uuids[0]!), { as: 'owner', body: { read: false } });
    expect(await count(api, account.uuid, 'owner')).toBe(5);
    expect((await api.request('POST', `${url(uuids[1]!)}/archive`, { as: 'owner' })).statusCode).toBe(204);
    expect(await count(api, account.uuid, 'owner')).toBe(4);
    // An archived one still opens, marked archived.
    const archived = await api.request('GET', url(uuids[1]!), { as: 'owner' });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data.archivedAt).not.toBeNull();
    const all = await api.request('POST', `${inbox(account.uuid)}/notifications/read-all`, { as: 'owner' });
    expect(all.json().data).toEqual({ changed: 4 });
    expect(await count(api, account.uuid, 'owner')).toBe(0);
    // The personal one was read with this account's; the other account's stay unread.
    expect(await count(api, other.uuid, 'owner')).toBe(2);
  });

  // The totals sum counts that triggers keep (migration 043, decision 265): after every kind of change they are
  // what counting the notifications gives, and none is left at zero.
  it('keeps the counts behind the totals equal to the notifications after each kind of change', async () => {
    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN' });
    const other = await team(api, { owner: 'OWNER' });
    const kept = async () =>
      (
        await api.db.query(
          `select user_uuid, account_key, type, archived, unread, count::int as count from notification_counts
            order by 1, 2, 3, 4, 5`,
        )
      ).rows;
    const same = async () =>
      expect(await kept()).toEqual(
        (
          await api.db.query(
            `select user_uuid, coalesce(account_uuid, '00000000-0000-0000-0000-000000000000') as account_key, type,
                    archived_at is not null as archived, read_at is null as unread, count(*)::int as count
               from notifications group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
          )
        ).rows,
      );
    const uuids = await insert(api, 'owner', account.uuid, [{}, { read: true }, { type: 'ticket.solved' }]);
    await insert(api, 'owner', null, [{ type: 'member.removed' }]);
    await same();
    // Many people and types in one statement, as a fan-out writes them.
    await api.db.query(
      `insert into notifications (account_uuid, user_uuid, type)
       select a.uuid, u.uuid, t from users u cross join unnest($1::text[]) t
              cross join (values ($2::uuid), ($3::uuid), (null)) a (uuid)
        where u.subject = any($4::text[])`,
      [['invoice.issued', 'ticket.answered'], account.uuid, other.uuid, [id('owner'), id('admin')]],
    );
    await same();
    const url = (uuid: string) => `${inbox(account.uuid)}/notifications/${uuid}`;
    await api.request('PATCH', url(uuids[0]!), { as: 'owner', body: { read: true } });
    await api.request('POST', `${url(uuids[2]!)}/archive`, { as: 'owner' });
    await api.request('POST', `${inbox(account.uuid)}/notifications/read-all`, { as: 'owner' });
    await same();
    await api.request('POST', `${url(uuids[2]!)}/restore`, { as: 'owner' });
    await api.db.query('update notifications set read_at = null where type = $1', ['ticket.answered']);
    await same();
    const page = await api.request('GET', `${inbox(account.uuid)}/notifications?unread=true`, {
      as: 'owner',
    });
    const { rows } = await api.db.query<{ n: number }>(
      `select count(*)::int as n from notifications
        where user_uuid = $1 and (account_uuid = $2 or account_uuid is null) and archived_at is null
          and read_at is null`,
      [id('owner'), account.uuid],
    );
    expect(page.json().meta.total).toBe(rows[0]!.n);
    // An account's notifications deleted with it, a person's with them.
    await api.db.query('delete from notifications where account_uuid = $1', [other.uuid]);
    await api.db.query('delete from notifications where user_uuid = $1', [id('admin')]);
    await same();
    await api.db.query('delete from notifications');
    expect(await kept()).toEqual([]);
  });

  it('lists the archived ones, most recently archived first, paged; restoring moves one back to the inbox', async () => {
    const account = await team(api, { owner: 'OWNER' });
    const other = await team(api, { owner: 'OWNER' });
    const uuids = await insert(api, 'owner', account.uuid, [
      {},
      { read: true },
      {},
      { type: 'ticket.solved' },
      {},
    ]);
    const [elsewhere] = await insert(api, 'owner', other.uuid, [{}]);
    const url = (uuid: string) => `${inbox(account.uuid)}/notifications/${uuid}`;
    for (const uuid of [uuids[2], uuids[0], uuids[1], uuids[3]]) {
      expect((await api.request('POST', `${url(uuid!)}/archive`, { as: 'owner' })).statusCode).toBe(204);
    }
    await api.request('POST', `${inbox(other.uuid)}/notifications/${elsewhere}/archive`, { as: 'owner' });
    // Spread the archive times, so the order does not rest on the clock's resolution.
    for (const [index, uuid] of [uuids[2], uuids[0], uuids[1], uuids[3]].entries()) {
      await api.db.query(
        `update notifications set archived_at = now() - make_interval(mins => $2) where uuid = $1`,
        [uuid, 10 - index],
      );
    }
    const page = async (query: string) => {
      const res = await api.request('GET', `${inbox(account.uuid)}/notifications?${query}`, { as: 'owner' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      return { uuids: body.data.map((n: { uuid: string }) => n.uuid), meta: body.meta, data: body.data };
    };
    const first = await page('archived=true&pageSize=3');
    expect(first).toMatchObject({
      uuids: [uuids[3], uuids[1], uuids[0]],
      meta: { total: 4, page: 1, pageSize: 3 },
    });
    expect(first.data.every((n: { archivedAt: string | null }) => n.archivedAt !== null)).toBe(true);
    expect(await page('archived=true&pageSize=3&page=2')).toMatchObject({
      uuids: [uuids[2]],
      meta: { total: 4, page: 2, pageSize: 3 },
    });
    expect((await page('archived=true&unread=true')).meta.total).toBe(3);
    expect((await page('archived=true&type=ticket.solved')).uuids).toEqual([uuids[3]]);
    // The inbox holds only the one not archived; listing the archived ones leaves the unread count alone.
    expect((await page('')).uuids).toEqual([uuids[4]]);
    expect(await count(api, account.uuid, 'owner')).toBe(1);

    // Restoring an unread one brings it back to the inbox and to the count; a read one only to the inbox.
    expect((await api.request('POST', `${url(uuids[0]!)}/restore`, { as: 'owner' })).statusCode).toBe(204);
    expect(await count(api, account.uuid, 'owner')).toBe(2);
    expect((await api.request('POST', `${url(uuids[1]!)}/restore`, { as: 'owner' })).statusCode).toBe(204);
    expect(await count(api, account.uuid, 'owner')).toBe(2);
    // Restoring one already in the inbox changes nothing.
    expect((await api.request('POST', `${url(uuids[0]!)}/restore`, { as: 'owner' })).statusCode).toBe(204);
    expect(await count(api, account.uuid, 'owner')).toBe(2);
    expect((await page('')).uuids).toEqual([uuids[4], uuids[0], uuids[1]]);
    expect((await page('archived=true')).uuids).toEqual([uuids[3], uuids[2]]);
    const restored = await api.request('GET', url(uuids[0]!), { as: 'owner' });
    expect(restored.json().data).toMatchObject({ uuid: uuids[0], archivedAt: null, readAt: null });
    // The other account's archived one stays where it is.
    expect(await count(api, other.uuid, 'owner')).toBe(0);
  });

  it('preferences: defaults, a change per type, and whether a mail is queued follows them', async () => {
    const prefs = '/api/notifications/v1/preferences';
    const initial = await api.request('GET', prefs, { as: 'employee' });
    expect(initial.statusCode).toBe(200);
    const list = initial.json().data.preferences as { type: string; email: boolean }[];
    expect(list.map((p) => p.type)).toEqual([...NOTIFICATION_TYPES]);
    expect(list.find((p) => p.type === 'member.role_changed')!.email).toBe(false);
    expect(list.find((p) => p.type === 'invitation.received')!.email).toBe(true);

    const account = await team(api, { owner: 'OWNER', admin: 'ADMIN', employee: 'EMPLOYEE' });
    const change = (role: string) =>
      api.request('PATCH', `/api/accounts/${account.uuid}/members/v1/members/${id('employee')}`, {
        as: 'owner',
        body: { role },
      });
    const mailed = async () =>
      (await api.mailsTo(DEMO_USERS.employee.email)).filter((m) => m.html_body?.includes('/inbox/'));
    await change('ADMIN');
    expect(await mailed()).toHaveLength(0);

    const put = await api.request('PUT', prefs, {
      as: 'employee',
      body: { preferences: [{ type: 'member.role_changed', email: true }] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data.preferences).toContainEqual({ type: 'member.role_changed', email: true });
    await change('EMPLOYEE');
    const mails = await mailed();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Portal: Ihre Rolle in «${account.name}» wurde geändert`);
    expect(mails[0]!.text_body).toContain(
      `Olivia Owner hat Ihre Rolle in «${account.name}» von Administrator/in zu Mitarbeiter/in geändert.`,
    );
    expect(mails[0]!.text_body).toContain(`/inbox/`);
    expect(mails[0]!.text_body).toContain(`?uuid=${account.uuid}`);

    // Another user's preference is theirs alone; bad input changes nothing.
    expect((await api.request('GET', prefs, { as: 'owner' })).json().data.preferences).toContainEqual({
      type: 'member.role_changed',
      email: false,
    });
    expect(list.find((p) => p.type === 'ownership.transfer_requested')).toEqual({
      type: 'ownership.transfer_requested',
      email: true,
      fixed: true,
    });
    for (const body of [
      { preferences: [{ type: 'invitation.received', email: false }] },
      { preferences: [{ type: 'nope', email: true }] },
      { preferences: [] },
      { preferences: [{ type: 'member.role_changed', email: 'yes' }] },
    ]) {
      expect((await api.request('PUT', prefs, { as: 'employee', body })).statusCode).toBe(422);
    }
    expect((await api.request('GET', prefs, { as: 'employee' })).json().data.preferences).toContainEqual({
      type: 'member.role_changed',
      email: true,
    });
  });
});

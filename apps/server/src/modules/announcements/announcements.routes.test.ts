import crypto from 'node:crypto';
import type { Announcement, AnnouncementInput, CurrentAnnouncement } from '@portal/contract';
import { beforeAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../demo/users.ts';
import { createNotifier } from '../../notifications/notifier.ts';
import { describeApi, type ApiRequest, type TestApi } from '../../test/api.ts';
import { fanOutBatch, planFanout } from './announcements.service.ts';

const BASE = '/api/announcements/v1/announcements';
const CURRENT = '/api/announcements/v1/current';
type As = ApiRequest['as'];

const hour = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

function input(overrides: Partial<AnnouncementInput> = {}): AnnouncementInput {
  return {
    kind: 'maintenance',
    title: { de: `Wartung ${crypto.randomUUID().slice(0, 8)}`, it: 'Manutenzione' },
    body: { de: 'Kurz **nicht** erreichbar: [Status](https://status.example.com)' },
    audience: 'accounts',
    audienceValues: [DEMO_ACCOUNTS.muster],
    roles: 'everyone',
    startsAt: at(-60_000),
    endsAt: at(2 * hour),
    ...overrides,
  };
}

/** The users who have the announcement in their inbox. */
async function recipients(api: TestApi, uuid: string): Promise<string[]> {
  const { rows } = await api.db.query<{ user_uuid: string }>(
    `select user_uuid from notifications
      where type = 'announcement.published' and params ->> 'announcementUuid' = $1 order by user_uuid`,
    [uuid],
  );
  return rows.map((r) => r.user_uuid);
}

/** The accepted members of `accounts`, optionally with these roles only: who an announcement must reach. */
async function membersOf(api: TestApi, accounts: string[], roles?: string[]): Promise<string[]> {
  const { rows } = await api.db.query<{ user_uuid: string }>(
    `select distinct user_uuid from account_members
      where account_uuid = any($1::uuid[]) and invitation_status = 'ACCEPTED'
        and ($2::text[] is null or role = any($2::text[]))
      order by user_uuid`,
    [accounts, roles ?? null],
  );
  return rows.map((r) => r.user_uuid);
}

async function userUuid(api: TestApi, email: string): Promise<string> {
  const { rows } = await api.db.query<{ uuid: string }>('select uuid from users where email = $1', [email]);
  return rows[0]!.uuid;
}

describeApi('announcements API', (api) => {
  const manager: As = 'billing'; // SUPPORT_MANAGER
  const admin: As = 'portalAdmin'; // PORTAL_ADMIN

  async function create(body: AnnouncementInput = input(), as: As = admin): Promise<Announcement> {
    const res = await api.request('POST', BASE, { as, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Announcement }>().data;
  }

  async function publish(uuid: string, as: As = admin) {
    const res = await api.request('POST', `${BASE}/${uuid}/publication`, { as });
    await api.app.jobs.drain();
    return res;
  }

  async function get(uuid: string): Promise<Announcement> {
    return (await api.request('GET', `${BASE}/${uuid}`, { as: admin })).json<{ data: Announcement }>().data;
  }

  let liechtenstein: string;
  let liOwner: string;
  beforeAll(async () => {
    // An account of its own in Liechtenstein, on no plan, with an owner and an employee.
    liechtenstein = crypto.randomUUID();
    liOwner = crypto.randomUUID();
    const liEmployee = crypto.randomUUID();
    await api.db.query(`insert into accounts (uuid, name, country) values ($1, 'Vaduz AG', 'LI')`, [
      liechtenstein,
    ]);
    for (const [uuid, role] of [
      [liOwner, 'OWNER'],
      [liEmployee, 'EMPLOYEE'],
    ] as const) {
      await api.db.query(`insert into users (uuid, subject, email, name) values ($1, $2, $3, $4)`, [
        uuid,
        uuid,
        `${role.toLowerCase()}-${uuid.slice(0, 8)}@vaduz.example`,
        `Vaduz ${role}`,
      ]);
      await api.db.query(`insert into account_members (account_uuid, user_uuid, role) values ($1, $2, $3)`, [
        liechtenstein,
        uuid,
        role,
      ]);
    }
  });

  it('lets SUPPORT_MANAGER draft but not publish or withdraw, PORTAL_ADMIN publish; customers and agents nothing', async () => {
    for (const as of ['owner', 'agent'] as As[]) {
      expect((await api.request('GET', BASE, { as })).statusCode).toBe(403);
      expect((await api.request('POST', BASE, { as, body: input() })).statusCode).toBe(403);
    }
    const draft = await create(input(), manager);
    expect(draft.status).toBe('draft');
    const changed = await api.request('PUT', `${BASE}/${draft.uuid}`, {
      as: manager,
      body: input({ kind: 'incident' }),
    });
    expect(changed.json<{ data: Announcement }>().data.kind).toBe('incident');
    expect((await publish(draft.uuid, manager)).statusCode).toBe(403);
    expect((await publish(draft.uuid, 'owner')).statusCode).toBe(403);
    expect((await get(draft.uuid)).status).toBe('draft');
    expect(await recipients(api, draft.uuid)).toEqual([]);

    expect((await publish(draft.uuid, admin)).statusCode).toBe(200);
    expect((await api.request('POST', `${BASE}/${draft.uuid}/withdrawal`, { as: manager })).statusCode).toBe(
      403,
    );
    // A published one is changed by PORTAL_ADMIN only, and not by the manager who drafted it.
    expect(
      (await api.request('PUT', `${BASE}/${draft.uuid}`, { as: manager, body: input() })).statusCode,
    ).toBe(403);
    // Only a draft is deleted.
    expect((await api.request('DELETE', `${BASE}/${draft.uuid}`, { as: admin })).statusCode).toBe(409);
    const other = await create(input(), manager);
    expect((await api.request('DELETE', `${BASE}/${other.uuid}`, { as: manager })).statusCode).toBe(204);
  });

  it('refuses invalid input with 422 field errors the web translates (never 5xx), and a broken body with 400', async () => {
    const cases: [Partial<AnnouncementInput>, string, string][] = [
      [{ title: { de: '  ' } }, 'title.de', 'required'],
      [{ body: { de: '' } }, 'body.de', 'required'],
      [{ startsAt: at(hour), endsAt: at(0) }, 'endsAt', 'announcementEndBeforeStart'],
      [{ audience: 'plans', audienceValues: ['NO_SUCH_PLAN'] }, 'audienceValues', 'announcementUnknownPlan'],
      [
        { audience: 'accounts', audienceValues: [crypto.randomUUID()] },
        'audienceValues',
        'announcementUnknownAccount',
      ],
      [
        { audience: 'countries', audienceValues: ['Schweiz'] },
        'audienceValues',
        'announcementUnknownCountry',
      ],
      [{ audience: 'countries', audienceValues: [] }, 'audienceValues', 'announcementAudienceEmpty'],
    ];
    for (const [change, field, key] of cases) {
      const res = await api.request('POST', BASE, { as: admin, body: input(change) });
      expect(res.statusCode, `${field} ${res.body}`).toBe(422);
      expect(res.json<{ details: { fields: Record<string, string> } }>().details.fields[field]).toBe(key);
    }
    // German is required by the schema too; another key is refused.
    const noGerman = await api.request('POST', BASE, {
      as: admin,
      body: { ...input(), title: { en: 'Maintenance' } },
    });
    expect(noGerman.statusCode).toBe(422);
    const broken = await api.request('POST', BASE, {
      as: admin,
      body: '{"kind":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
  });

  it('reaches exactly its audience: by accounts and roles, by country, everyone once, the badge and owners mailed', async () => {
    const muster = DEMO_ACCOUNTS.muster;
    // Owners and admins of Muster AG only.
    const admins = await create(input({ roles: 'admins' }));
    await publish(admins.uuid);
    expect(await recipients(api, admins.uuid)).toEqual(await membersOf(api, [muster], ['OWNER', 'ADMIN']));

    // Everyone in Liechtenstein: the two of Vaduz AG, nobody of the Swiss demo accounts.
    const li = await create(input({ audience: 'countries', audienceValues: ['LI'], kind: 'info' }));
    await publish(li.uuid);
    expect(await recipients(api, li.uuid)).toEqual(await membersOf(api, [liechtenstein]));

    // All accounts: every accepted member once, however many accounts they are in (owner@ is in two).
    const badge = async () =>
      (
        await api.request('GET', `/api/accounts/${muster}/notifications/v1/unread-count`, { as: 'owner' })
      ).json<{ data: { count: number } }>().data.count;
    const badgeBefore = await badge();
    const all = await create(input({ audience: 'all', audienceValues: [] }));
    await publish(all.uuid);
    const { rows } = await api.db.query<{ uuid: string }>('select uuid from accounts');
    const everyone = await membersOf(
      api,
      rows.map((r) => r.uuid),
    );
    expect(await recipients(api, all.uuid)).toEqual(everyone);
    const announcement = await get(all.uuid);
    expect(announcement.reach).toBe(everyone.length);
    expect(announcement.fannedOutAt).not.toBeNull();

    // The owner's badge counts it (a personal notification shows in each account's inbox).
    expect(await badge()).toBe(badgeBefore + 1);

    // A maintenance is mailed to owners whatever their choice; an info only by the person's choice (off by default).
    const liOwnerEmail = (
      await api.db.query<{ email: string }>('select email from users where uuid = $1', [liOwner])
    ).rows[0]!.email;
    await api.db.query(
      `insert into notification_preferences (user_uuid, type, email) values ($1, 'announcement.published', false)`,
      [liOwner],
    );
    const before = (await api.mailsTo(liOwnerEmail)).length;
    const maintenance = await create(input({ audience: 'countries', audienceValues: ['LI'] }));
    await publish(maintenance.uuid);
    const mails = await api.mailsTo(liOwnerEmail);
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)!.subject).toContain(maintenance.title.de);
    const employeeEmail = (
      await api.db.query<{ email: string }>(
        `select u.email from users u join account_members m on m.user_uuid = u.uuid
          where m.account_uuid = $1 and m.role = 'EMPLOYEE'`,
        [liechtenstein],
      )
    ).rows[0]!.email;
    expect(await api.mailsTo(employeeEmail)).toEqual([]);
  });

  it('fans out in batches side by side: everyone once, however the audience is cut, and a batch run again writes nothing', async () => {
    const all = await create(input({ audience: 'all', audienceValues: [] }));
    // Published here, so that the plan is this one with batches of 3 (FANOUT_BATCH is larger than the demo).
    const { rows } = await api.db.query<{ revision: number }>(
      `update announcements set status = 'published', published_at = now() where uuid = $1 returning revision`,
      [all.uuid],
    );
    const revision = rows[0]!.revision;
    const everyone = await membersOf(
      api,
      (await api.db.query<{ uuid: string }>('select uuid from accounts')).rows.map((r) => r.uuid),
    );
    expect(await planFanout(api.db, api.app.jobs, all.uuid, revision, 3)).toBe(
      Math.floor(everyone.length / 3) + 1,
    );
    await api.app.jobs.drain();
    expect(await recipients(api, all.uuid)).toEqual(everyone);
    expect((await get(all.uuid)).fannedOutAt).not.toBeNull();
    // A batch that committed and runs again (its lease ran out) while others still run finds its range written.
    await api.db.query('update announcements set fanned_out_at = null where uuid = $1', [all.uuid]);
    await fanOutBatch(api.db, createNotifier(), {
      announcementUuid: all.uuid,
      revision,
      after: null,
      upTo: everyone[2]!,
    });
    expect(await recipients(api, all.uuid)).toEqual(everyone);
  });

  it('waits for its start, can be changed until then (not after), and a withdrawal empties every inbox', async () => {
    const later = await create(input({ startsAt: at(24 * hour), endsAt: null }));
    await publish(later.uuid);
    expect(await recipients(api, later.uuid)).toEqual([]);
    const moved = await api.request('PUT', `${BASE}/${later.uuid}`, {
      as: admin,
      body: input({ title: { de: 'Verschoben' }, startsAt: at(48 * hour), endsAt: null }),
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ data: Announcement }>().data.title.de).toBe('Verschoben');

    // Once started it stays as it was sent.
    await api.db.query(`update announcements set starts_at = now() - interval '1 minute' where uuid = $1`, [
      later.uuid,
    ]);
    const tooLate = await api.request('PUT', `${BASE}/${later.uuid}`, { as: admin, body: input() });
    expect(tooLate.statusCode).toBe(409);

    const now = await create(input());
    await publish(now.uuid);
    const reached = await recipients(api, now.uuid);
    expect(reached).toEqual(await membersOf(api, [DEMO_ACCOUNTS.muster]));
    const owner = await userUuid(api, 'owner@example.com');
    expect(reached).toContain(owner);
    const current = await api.request('GET', CURRENT, { as: 'owner' });
    expect(current.json<{ data: CurrentAnnouncement[] }>().data.map((a) => a.uuid)).toContain(now.uuid);

    const withdrawn = await api.request('POST', `${BASE}/${now.uuid}/withdrawal`, { as: admin });
    expect(withdrawn.statusCode).toBe(200);
    await api.app.jobs.drain();
    expect(await recipients(api, now.uuid)).toEqual([]);
    expect(await get(now.uuid)).toMatchObject({ status: 'withdrawn', reach: 0 });
    const after = await api.request('GET', CURRENT, { as: 'owner' });
    expect(after.json<{ data: CurrentAnnouncement[] }>().data.map((a) => a.uuid)).not.toContain(now.uuid);
    expect((await api.request('GET', `${CURRENT}/${now.uuid}`, { as: 'owner' })).statusCode).toBe(404);
    // Withdrawn is final.
    expect((await api.request('PUT', `${BASE}/${now.uuid}`, { as: admin, body: input() })).statusCode).toBe(
      409,
    );
  });

  it('shows the bar to whom it reached until they close it, its text as safe HTML, and counts who read it', async () => {
    const incident = await create(
      input({
        kind: 'incident',
        body: { de: 'Text <script>alert(1)</script> [Status](https://s.example.com)' },
      }),
    );
    await publish(incident.uuid);
    const barOf = async (as: As) =>
      (await api.request('GET', CURRENT, { as }))
        .json<{ data: CurrentAnnouncement[] }>()
        .data.map((a) => a.uuid);
    expect(await barOf('admin')).toContain(incident.uuid);
    // inhaber@ is only in Beispiel GmbH: not in the audience.
    expect(await barOf('inhaber')).not.toContain(incident.uuid);
    expect(
      (await api.request('POST', `${CURRENT}/${incident.uuid}/dismissal`, { as: 'inhaber' })).statusCode,
    ).toBe(404);
    expect((await api.request('GET', `${CURRENT}/${incident.uuid}`, { as: 'inhaber' })).statusCode).toBe(404);

    const reading = await api.request('GET', `${CURRENT}/${incident.uuid}`, { as: 'admin' });
    const html = reading.json<{ data: { html: Record<string, string> } }>().data.html;
    expect(html.it).toBe(html.de);
    expect(html.de).toContain('href="https://s.example.com"');
    expect(html.de).not.toContain('<script');

    expect(
      (await api.request('POST', `${CURRENT}/${incident.uuid}/dismissal`, { as: 'admin' })).statusCode,
    ).toBe(204);
    expect(await barOf('admin')).not.toContain(incident.uuid);
    expect(await barOf('owner')).toContain(incident.uuid);

    // Reach and read counts in the list, paged on the server.
    await api.db.query(
      `update notifications set read_at = now()
        where type = 'announcement.published' and params ->> 'announcementUuid' = $1
          and user_uuid = (select uuid from users where email = 'admin@example.com')`,
      [incident.uuid],
    );
    const page = await api.request('GET', `${BASE}?status=published&pageSize=2`, { as: manager });
    const list = page.json<{ data: Announcement[]; meta: { total: number; pageSize: number } }>();
    expect(list.data.length).toBe(2);
    expect(list.meta.total).toBeGreaterThan(2);
    const row = list.data.find((a) => a.uuid === incident.uuid)!;
    expect(row).toMatchObject({ read: 1, reach: (await membersOf(api, [DEMO_ACCOUNTS.muster])).length });
  });
});

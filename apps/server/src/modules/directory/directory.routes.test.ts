import type { DirectoryAccount, DirectoryList } from '@portal/contract';
import { beforeAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type ApiRequest } from '../../test/api.ts';
import { insertTestTicket, staffUser } from '../../test/support-tickets.ts';

const BASE = '/api/directory/v1/accounts';
const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
type As = ApiRequest['as'];

describeApi('account directory API', (api) => {
  let support: As;
  let admin: As;
  let ticketNumber: number;
  let invoiceNumber: string;

  beforeAll(async () => {
    support = (await staffUser(api, 'SUPPORT')).as;
    admin = (await staffUser(api, 'PORTAL_ADMIN')).as;
    // A ticket of Beispiel GmbH (without consent), and Muster AG's newest unpaid invoice, to be found by number.
    ticketNumber = (await insertTestTicket(api, { account: BEISPIEL, createdBy: DEMO_USERS.inhaber.id }))
      .number;
    const { rows } = await api.db.query<{ number: string }>(
      `select number from invoices where account_uuid = $1 order by issued_on desc limit 1`,
      [MUSTER],
    );
    invoiceNumber = rows[0]!.number;
  });

  async function search(q: string | null, as: As = 'agent', extra = '') {
    const query = q === null ? '' : `?q=${encodeURIComponent(q)}`;
    const res = await api.request('GET', `${BASE}${query}${extra}`, { as });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DirectoryList>();
  }
  /** The names on every page of a list, `pageSize` at a time along its cursor; `between` runs after the first page. */
  async function walk(q: string | null, pageSize: number, between?: () => Promise<void>) {
    const pages: { names: string[]; total: number | null }[] = [];
    let cursor: string | null = null;
    do {
      const extra = `${q === null ? '?' : '&'}pageSize=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await search(q, 'agent', extra);
      expect(page.meta.pageSize).toBe(pageSize);
      pages.push({ names: page.data.map((a) => a.name), total: page.meta.total });
      cursor = page.meta.nextCursor;
      if (pages.length === 1) await between?.();
    } while (cursor && pages.length < 10);
    return pages;
  }
  const uuids = (page: { data: DirectoryAccount[] }) => page.data.map((a) => a.uuid);

  it('finds an account by its UID in any spacing and punctuation, and by nothing else of it', async () => {
    for (const q of [
      'CHE-123.456.788',
      'che 123 456 788',
      'CHE123456788',
      ' CHE-123-456-788 ',
      '123.456.788',
      'CHE-123.456.788 MWST',
    ]) {
      const page = await search(q);
      expect(uuids(page), q).toEqual([MUSTER]);
      expect(page.data[0]!.matchedBy, q).toEqual(['uid']);
      expect(page.data[0]!.uid).toBe('CHE-123.456.788');
    }
    expect((await search('CHE-123.456.789')).data).toEqual([]);
  });

  it("finds accounts by part of their name, an owner's or a member's address, an invoice and a ticket number", async () => {
    const byName = await search('uster');
    expect(uuids(byName)).toEqual([MUSTER]);
    expect(byName.data[0]!.matchedBy).toEqual(['name']);
    // The owner of Muster AG is an employee of Beispiel GmbH: both accounts, by name.
    expect(uuids(await search('OWNER@example.com'))).toEqual([BEISPIEL, MUSTER]);
    expect((await search('inhaber@exa')).data.map((a) => [a.uuid, a.matchedBy])).toEqual([
      [BEISPIEL, ['email']],
    ]);
    // A pending invitation is no membership: employee@ is invited to Beispiel GmbH but a member of Muster AG only.
    expect(uuids(await search('employee@example.com'))).toEqual([MUSTER]);

    const [year, sequence] = invoiceNumber.split('-');
    for (const q of [invoiceNumber, `${year}-${Number(sequence)}`]) {
      const page = await search(q);
      expect(
        page.data.map((a) => [a.uuid, a.matchedBy]),
        q,
      ).toEqual([[MUSTER, ['invoice']]]);
    }
    for (const q of [String(ticketNumber), `Nr. ${ticketNumber}`, `#${ticketNumber}`, `n° ${ticketNumber}`]) {
      const page = await search(q);
      expect(
        page.data.map((a) => [a.uuid, a.matchedBy]),
        q,
      ).toEqual([[BEISPIEL, ['ticket']]]);
    }
    // Too short for a name, no number: nothing, not everything.
    expect((await search('ag')).meta.total).toBe(0);
    expect((await search('Zürich')).data).toEqual([]);
  });

  it('says every way a search found an account, in one order', async () => {
    // A member of Muster AG whose address holds the account's name: one hit, found by name and by address.
    const { rows } = await api.db.query<{ uuid: string }>(
      `insert into users (uuid, subject, email, name, email_verified)
       values (gen_random_uuid(), 'directory-both', 'buchhaltung@muster-ag.example', 'Buchhaltung', true)
       returning uuid`,
    );
    const member = rows[0]!.uuid;
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role) values ($1, $2, 'EMPLOYEE')`,
      [MUSTER, member],
    );
    try {
      const page = await search('muster');
      expect(page.data.map((a) => [a.uuid, a.matchedBy])).toEqual([[MUSTER, ['email', 'name']]]);
      expect(page.meta.total).toBe(1);
    } finally {
      await api.db.query(`delete from account_members where user_uuid = $1`, [member]);
      await api.db.query(`delete from users where uuid = $1`, [member]);
    }
  });

  it('lists every live account by name along a cursor, a search too; an account past its deletion is gone', async () => {
    const all = await search(null);
    expect(all.data.map((a) => a.name)).toEqual(['Beispiel GmbH', 'Muster AG', 'Neu Sàrl']);
    // The unfiltered list is not counted; a search counts its hits.
    expect(all.meta).toEqual({ pageSize: 25, nextCursor: null, total: null });
    expect((await search('example.com')).meta.total).toBe(3);

    // A twin of Muster AG's name (sorted after it by uuid) and, once the first page is read, an account sorted
    // before it: the pages neither repeat nor skip one (by offset, the second page would repeat Beispiel GmbH).
    const twin = 'ffffffff-0000-4000-8000-000000000001';
    const early = 'ffffffff-0000-4000-8000-000000000002';
    await api.db.query(`insert into accounts (uuid, name, country) values ($1, 'MUSTER AG', 'CH')`, [twin]);
    try {
      const pages = await walk(null, 1, () =>
        api.db
          .query(`insert into accounts (uuid, name, country) values ($1, 'Aare AG', 'CH')`, [early])
          .then(() => undefined),
      );
      expect(pages.map((page) => page.names)).toEqual([
        ['Beispiel GmbH'],
        ['Muster AG'],
        ['MUSTER AG'],
        ['Neu Sàrl'],
      ]);
      // A search pages the same way, and every page says how many it found.
      expect(await walk('muster', 1)).toEqual([
        { names: ['Muster AG'], total: 2 },
        { names: ['MUSTER AG'], total: 2 },
      ]);
    } finally {
      await api.db.query(`delete from accounts where uuid = any($1::uuid[])`, [[twin, early]]);
    }
    expect((await walk('example.com', 2)).map(({ names, total }) => [names, total])).toEqual([
      [['Beispiel GmbH', 'Muster AG'], 3],
      [['Neu Sàrl'], 3],
    ]);
    for (const cursor of [
      'x',
      Buffer.from('["a"]').toString('base64url'),
      Buffer.from('["a","1"]').toString('base64url'),
    ]) {
      const res = await api.request('GET', `${BASE}?cursor=${cursor}`, { as: 'agent' });
      expect(res.statusCode, cursor).toBe(422);
    }

    // A page past the last hit is empty and still says how many the search found (its one row carries the total).
    const end = Buffer.from(JSON.stringify(['zzz', 'ffffffff-ffff-4fff-8fff-ffffffffffff'])).toString(
      'base64url',
    );
    expect((await search('example.com', 'agent', `&cursor=${end}`)).meta).toEqual({
      pageSize: 25,
      nextCursor: null,
      total: 3,
    });

    // Every kind of search checks the account it found (decision 260): a closed ticket of Neu Sàrl by its number.
    const neuTicket = await insertTestTicket(api, {
      account: DEMO_ACCOUNTS.neu,
      createdBy: DEMO_USERS.newowner.id,
      status: 'CLOSED',
    });
    expect(uuids(await search(`Nr. ${neuTicket.number}`))).toEqual([DEMO_ACCOUNTS.neu]);
    await api.db.query(`update accounts set available_until = now() - interval '1 minute' where uuid = $1`, [
      DEMO_ACCOUNTS.neu,
    ]);
    try {
      expect((await search(null)).data.map((a) => a.name)).toEqual(['Beispiel GmbH', 'Muster AG']);
      expect((await search('Neu Sàrl')).data).toEqual([]);
      expect((await search('example.com')).meta.total).toBe(2);
      for (const q of [DEMO_USERS.newowner.email, 'newowner@', `Nr. ${neuTicket.number}`]) {
        expect((await search(q)).meta, q).toEqual({ pageSize: 25, nextCursor: null, total: 0 });
      }
    } finally {
      await api.db.query(`update accounts set available_until = null where uuid = $1`, [DEMO_ACCOUNTS.neu]);
    }
  });

  it("shows an account's summary, each part only to the roles that need it", async () => {
    const summary = async (as: As) => (await search('Muster AG', as)).data[0]!;

    const manager = await summary('billing');
    expect(manager).toMatchObject({
      uuid: MUSTER,
      name: 'Muster AG',
      country: 'CH',
      uid: 'CHE-123.456.788',
      membersCount: 5,
      owner: { name: 'Olivia Owner', email: 'owner@example.com' },
      availableUntil: null,
      twoFactor: { required: false, graceUntil: null },
      mayOpen: true,
    });
    expect(manager.subscription).toMatchObject({
      planCode: expect.any(String),
      planName: expect.any(String),
    });
    const { rows } = await api.db.query<{ open: string; overdue: string; owed: string }>(
      `select count(*) as open, count(*) filter (where status = 'OVERDUE' or due_on < current_date) as overdue,
              coalesce(sum(total_minor - paid_minor), 0) as owed
         from invoices where account_uuid = $1 and kind = 'INVOICE' and status in ('OPEN', 'OVERDUE')`,
      [MUSTER],
    );
    expect(manager.invoices.openCount).toBe(Number(rows[0]!.open));
    expect(manager.invoices.overdueCount).toBe(Number(rows[0]!.overdue));
    expect(manager.invoices.amounts!.reduce((sum, a) => sum + a.openMinor, 0)).toBe(Number(rows[0]!.owed));
    expect(manager.openTickets).toBeGreaterThanOrEqual(2);
    if (manager.invoices.overdueCount > 0) expect(manager.subscription!.status).toBe('PAST_DUE');

    // Agents answer customers: the owner's address, but no amounts.
    const agent = await summary('agent');
    expect(agent.owner).toEqual({ name: 'Olivia Owner', email: 'owner@example.com' });
    expect(agent.invoices).not.toHaveProperty('amounts');
    expect(agent.invoices.openCount).toBe(manager.invoices.openCount);
    // The lowest support role: neither address nor amounts, not even in the raw answer.
    const res = await api.request('GET', `${BASE}?q=Muster`, { as: support });
    expect(res.body).not.toContain('owner@example.com');
    expect(res.body).not.toContain('Minor');
    expect(res.json<{ data: DirectoryAccount[] }>().data[0]!.owner).toEqual({ name: 'Olivia Owner' });

    const beispiel = (await search('Beispiel', 'billing')).data[0]!;
    expect(beispiel.availableUntil).not.toBeNull();
    expect(beispiel.owner).toMatchObject({ name: 'Isabelle Inhaber' });
  });

  it('says whether the caller may open the account, by the rule that opens it, and opening it is in its log', async () => {
    // Muster AG's demo ticket with consent is open: agents may open it; Beispiel GmbH gave no consent.
    const byName = async (as: As) =>
      Object.fromEntries((await search(null, as)).data.map((a) => [a.name, a.mayOpen]));
    expect(await byName('agent')).toEqual({ 'Muster AG': true, 'Beispiel GmbH': false, 'Neu Sàrl': false });
    expect(await byName(admin)).toEqual({ 'Muster AG': true, 'Beispiel GmbH': true, 'Neu Sàrl': true });
    expect(
      (await api.request('GET', `/api/accounts/v1/accounts/${BEISPIEL}`, { as: 'agent' })).statusCode,
    ).toBe(404);

    const open = await api.request('GET', `/api/accounts/v1/accounts/${BEISPIEL}`, { as: admin });
    expect(open.statusCode).toBe(200);
    const { rows } = await api.db.query<{ target: string }>(
      `select target from audit_log where account_uuid = $1 and action = 'support.access' order by id desc limit 1`,
      [BEISPIEL],
    );
    expect(rows[0]?.target).toBe('GET /api/accounts/v1/accounts/:id');
  });

  it('refuses customers of every role alike, never telling whether an account exists', async () => {
    const withAnUid = `${BASE}?q=${encodeURIComponent('CHE-123.456.788')}`;
    const withNothing = `${BASE}?q=${encodeURIComponent('CHE-999.999.999')}`;
    for (const as of ['owner', 'admin', 'employee', 'coach', 'newowner'] as As[]) {
      const found = await api.request('GET', withAnUid, { as });
      const missing = await api.request('GET', withNothing, { as });
      expect(found.statusCode).toBe(403);
      expect(found.body).toBe(missing.body);
      expect(found.body).not.toContain('Muster');
    }
    expect((await api.request('GET', withAnUid)).statusCode).toBe(401);
    const tooLong = await api.request('GET', `${BASE}?q=${'x'.repeat(101)}`, { as: 'agent' });
    expect([400, 422]).toContain(tooLong.statusCode);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { LogEntry, LogsPage } from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import type { PortalUser } from '../../http/types.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { allowStaff } from '../../test/support-tickets.ts';
import { logsCsv } from './logs.csv.ts';
import { readLogBatches } from './logs.service.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const base = (account: string = MUSTER) => `/api/accounts/${account}/logs/v1`;

async function page(api: TestApi, as: DemoLogin, query = '', account: string = MUSTER): Promise<LogsPage> {
  const res = await api.request('GET', `${base(account)}/entries${query ? `?${query}` : ''}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every entry the caller sees with these filters, page by page along the cursors. */
async function all(api: TestApi, as: DemoLogin, filters = '', pageSize = 100): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  let cursor: string | null = null;
  do {
    const query: string = [filters, `pageSize=${pageSize}`, cursor ? `cursor=${cursor}` : '']
      .filter(Boolean)
      .join('&');
    const result = await page(api, as, query);
    entries.push(...result.data);
    cursor = result.meta.nextCursor;
  } while (cursor);
  return entries;
}

const isNewestFirst = (entries: LogEntry[]) =>
  entries.every(
    (e, i) =>
      i === 0 ||
      entries[i - 1]!.createdAt > e.createdAt ||
      (entries[i - 1]!.createdAt === e.createdAt && BigInt(entries[i - 1]!.id) > BigInt(e.id)),
  );

async function count(api: TestApi, where = 'true', params: unknown[] = []): Promise<number> {
  const { rows } = await api.db.query<{ n: number }>(
    `select count(*)::int as n from audit_log where account_uuid = '${MUSTER}' and ${where}`,
    params,
  );
  return rows[0]!.n;
}

describeApi('logs API', (api) => {
  it('gives an admin the whole account log, newest first, in keyset pages without gaps or repeats', async () => {
    const first = await page(api, 'admin');
    expect(first.data).toHaveLength(50);
    expect(first.meta.nextCursor).toEqual(expect.any(String));
    const entries = await all(api, 'admin');
    expect(entries.length).toBe(await count(api));
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(isNewestFirst(entries)).toBe(true);
    // Names, the readable browser and the user a target names are resolved.
    const change = entries.find(
      (e) => e.action === 'member.role.change' && e.targetUser?.uuid === DEMO_USERS.employee.id,
    )!;
    expect(change).toMatchObject({
      actor: { uuid: DEMO_USERS.admin.id, name: DEMO_USERS.admin.name, email: DEMO_USERS.admin.email },
      actorIsStaff: false,
      targetUser: { name: DEMO_USERS.employee.name, email: DEMO_USERS.employee.email },
      browser: expect.stringMatching(/^(Chrome|Firefox|Safari|Microsoft Edge) \d+ · \w+/),
    });
    expect(entries.some((e) => e.action === 'support.access' && e.actorIsStaff)).toBe(true);
  });

  it('shows roles below ADMIN only the entries in which they are actor or target', async () => {
    const entries = await all(api, 'employee');
    const own = await count(api, `(actor_uuid = $1 or target in ('user:' || $1, 'member:' || $1))`, [
      DEMO_USERS.employee.id,
    ]);
    expect(own).toBeGreaterThan(5);
    expect(own).toBeLessThan(await count(api));
    expect(entries).toHaveLength(own);
    for (const e of entries) {
      expect(e.actor?.uuid === DEMO_USERS.employee.id || e.targetUser?.uuid === DEMO_USERS.employee.id).toBe(
        true,
      );
    }
    // Filters narrow, never widen: asking for the admin's entries gives only those about the employee.
    const byAdmin = await all(api, 'employee', `actor=${DEMO_USERS.admin.id}`);
    expect(byAdmin.length).toBeGreaterThan(0);
    expect(byAdmin.every((e) => e.targetUser?.uuid === DEMO_USERS.employee.id)).toBe(true);
  });

  it('gives roles below ADMIN no member list, and no one else’s client address or browser (issue 21 item 8)', async () => {
    const employee = DEMO_USERS.employee;
    // The admin acts on the employee from one address and browser, the employee herself from another.
    const admins = {
      address: '203.0.113.77',
      agent: 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/134.0',
    };
    const own = {
      address: '198.51.100.9',
      agent: 'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/18.1 Safari/605.1.15',
    };
    await api.db.transaction(async (tx) => {
      await writeAudit(tx, {
        accountUuid: MUSTER,
        actor: { uuid: DEMO_USERS.admin.id, clientAddress: admins.address, userAgent: admins.agent },
        action: 'member.role.change',
        target: `user:${employee.id}`,
        before: { role: 'EMPLOYEE' },
        after: { role: 'ADMIN' },
      });
      await writeAudit(tx, {
        accountUuid: MUSTER,
        actor: { uuid: employee.id, clientAddress: own.address, userAgent: own.agent },
        action: 'invitation.accept',
        target: `user:${employee.id}`,
      });
    });

    // The actor filter offers an employee herself only; the members list is ADMIN's (DC passes ADMIN).
    const actors = async (as: DemoLogin) =>
      ((await api.request('GET', `${base()}/actors`, { as })).json().data as { uuid: string }[]).map(
        (a) => a.uuid,
      );
    expect(await actors('employee')).toEqual([employee.id]);
    for (const as of ['admin', 'coach'] as const) {
      expect(await actors(as)).toEqual(
        expect.arrayContaining([DEMO_USERS.owner.id, DEMO_USERS.admin.id, employee.id]),
      );
    }

    // Her own entries keep her address; those of others acting on her show who, not from where.
    // (Written in one transaction: one time, the later id first.)
    const [byHer, byAdmin] = (await page(api, 'employee', 'pageSize=2')).data;
    expect(byAdmin).toMatchObject({
      actor: { uuid: DEMO_USERS.admin.id },
      clientAddress: null,
      userAgent: null,
      browser: null,
    });
    expect(byHer).toMatchObject({
      actor: { uuid: employee.id },
      clientAddress: own.address,
      userAgent: own.agent,
    });
    const entries = await all(api, 'employee');
    const others = entries.filter((e) => e.actor?.uuid !== employee.id);
    expect(others.length).toBeGreaterThan(5);
    expect(others.every((e) => e.clientAddress === null && e.userAgent === null && e.browser === null)).toBe(
      true,
    );
    // An admin still sees them.
    expect((await page(api, 'admin', 'pageSize=2')).data[1]).toMatchObject({
      actor: { uuid: DEMO_USERS.admin.id },
      clientAddress: admins.address,
    });

    // Nor does the free-text search find them by the hidden address or browser, nor the export show them.
    expect(await all(api, 'employee', `q=${admins.address}`)).toEqual([]);
    expect(await all(api, 'employee', 'q=Firefox%2F134')).toEqual([]);
    expect((await all(api, 'employee', `q=${own.address}`)).length).toBeGreaterThan(0);
    const csv = (await api.request('GET', `${base()}/entries.csv`, { as: 'employee' })).body;
    expect(csv).toContain(own.address);
    expect(csv).not.toContain(admins.address);
    expect(csv).not.toContain('Firefox 134');
  });

  it('answers 404 to someone without access to the account, and to an unknown account', async () => {
    for (const path of ['entries', 'entries.csv', 'actors']) {
      const other = await api.request('GET', `${base()}/${path}`, { as: 'newowner' });
      expect(other.statusCode).toBe(404);
      const unknown = await api.request('GET', `${base('6f1c2b1e-0002-4000-8000-0000000000ff')}/${path}`, {
        as: 'admin',
      });
      expect(unknown.statusCode).toBe(404);
    }
  });

  it('filters by actor, action, date range and free text, on the server', async () => {
    const byActor = await all(api, 'admin', `actor=${DEMO_USERS.coach.id}`);
    expect(byActor.length).toBe(await count(api, 'actor_uuid = $1', [DEMO_USERS.coach.id]));
    expect(byActor.every((e) => e.actor?.uuid === DEMO_USERS.coach.id)).toBe(true);

    const byAction = await all(api, 'admin', 'action=support.access');
    expect(byAction.length).toBe(await count(api, `action = 'support.access'`));
    expect(byAction.every((e) => e.action === 'support.access')).toBe(true);

    const from = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const inRange = await all(api, 'admin', `from=${from}&to=${to}`);
    expect(inRange.length).toBe(
      await count(api, 'created_at >= $1::timestamptz and created_at < $2::timestamptz', [from, to]),
    );
    expect(inRange.length).toBeGreaterThan(0);

    // Free text: the actor's name, a value inside the change, literally (% is no wildcard).
    const byName = await all(api, 'admin', 'q=conrad');
    expect(byName.length).toBeGreaterThan(0);
    expect(
      byName.every(
        (e) => e.actor?.uuid === DEMO_USERS.coach.id || e.targetUser?.uuid === DEMO_USERS.coach.id,
      ),
    ).toBe(true);
    expect((await all(api, 'admin', `q=${encodeURIComponent('Bahnhofstrasse ')}`)).length).toBeGreaterThan(0);
    expect(await all(api, 'admin', 'q=%25')).toHaveLength(0);
  });

  it("dates each demo account's creation before its other entries (issue 23 item 12)", async () => {
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const { rows } = await api.db.query<{ action: string }>(
        'select action from audit_log where account_uuid = $1 order by created_at, id limit 1',
        [account],
      );
      if (rows.length) expect(rows[0]!.action, account).toBe('account.create');
    }
  });

  it('names what every entry concerns in words, never by a raw id or request line (issue 23 item 6)', async () => {
    const entries = await all(api, 'admin');
    // Every target the demo data writes has a readable subject.
    expect(entries.filter((e) => e.subject.kind === 'other').map((e) => e.target)).toEqual([]);
    expect(entries.find((e) => e.target === 'terms:agb')?.subject).toEqual({
      kind: 'terms',
      id: 'agb',
      ref: null,
      name: null,
    });
    expect(entries.find((e) => e.target === `account:${MUSTER}`)?.subject).toMatchObject({
      kind: 'account',
      name: 'Muster AG',
    });
    expect(entries.find((e) => e.target?.startsWith('GET /api/'))?.subject).toMatchObject({ kind: 'area' });
    expect(entries.find((e) => e.target?.startsWith('invitation:'))?.subject).toMatchObject({
      kind: 'invitation',
      name: expect.stringContaining('@example.com'),
    });
  });

  it("finds entries by what the table shows in the reader's language: action, target, invoice number, ticket subject (issue 23 item 6)", async () => {
    const { rows: invoices } = await api.db.query<{ uuid: string; number: string }>(
      'select uuid::text as uuid, number from invoices where account_uuid = $1 order by number limit 1',
      [MUSTER],
    );
    const { rows: tickets } = await api.db.query<{ uuid: string; number: string; subject: string }>(
      'select uuid::text as uuid, number::text as number, subject from support_tickets where account_uuid = $1 limit 1',
      [MUSTER],
    );
    const invoice = invoices[0]!;
    const ticket = tickets[0]!;
    await api.db.transaction(async (tx) => {
      for (const target of [`invoice:${invoice.uuid}`, `ticket:${ticket.uuid}`]) {
        await writeAudit(tx, {
          accountUuid: MUSTER,
          actor: { uuid: DEMO_USERS.owner.id },
          action: 'test.subject',
          target,
        });
      }
    });
    const subjects = (await all(api, 'admin', 'action=test.subject')).map((e) => e.subject);
    expect(subjects).toEqual([
      { kind: 'ticket', id: ticket.uuid, ref: ticket.number, name: ticket.subject },
      { kind: 'invoice', id: invoice.uuid, ref: invoice.number, name: null },
    ]);

    const search = async (q: string, lang = 'de') =>
      all(api, 'admin', `q=${encodeURIComponent(q)}&lang=${lang}`);
    // The action as shown: "Mitglied eingeladen", "Firmenangaben geändert"; in English "Member invited".
    for (const [q, lang, action] of [
      ['eingeladen', 'de', 'member.invite'],
      ['Firmenangaben', 'de', 'company.update'],
      ['invited', 'en', 'member.invite'],
      ['invitato', 'it', 'member.invite'],
    ] as const) {
      const found = await search(q, lang);
      expect(found.length, q).toBe(await count(api, 'action = $1', [action]));
      expect(new Set(found.map((e) => e.action)), q).toEqual(new Set([action]));
    }
    // The target as shown: the terms by their name, what support opened by its area, the account by its name.
    const terms = await search('Geschäftsbedingungen');
    expect(terms.length).toBeGreaterThan(0);
    expect(terms.every((e) => e.target === 'terms:agb' || e.action === 'account.terms.accept')).toBe(true);
    expect((await search('Kontodaten')).some((e) => e.action === 'support.access')).toBe(true);
    expect((await search('Conditions générales', 'fr')).map((e) => e.target)).toContain('terms:agb');
    // Rows named by their number or name: the invoice's number, the ticket's subject; the kind's word alone.
    expect((await search(invoice.number)).map((e) => e.target)).toContain(`invoice:${invoice.uuid}`);
    expect((await search(ticket.subject.slice(0, 12))).map((e) => e.target)).toContain(
      `ticket:${ticket.uuid}`,
    );
    expect((await search('Rechnung')).map((e) => e.target)).toContain(`invoice:${invoice.uuid}`);
    expect((await search('Rechnung')).map((e) => e.target)).not.toContain(`ticket:${ticket.uuid}`);
    // The words of another language find nothing of it ("Rechnung" is "Invoice" in English).
    expect((await search('Rechnung', 'en')).map((e) => e.target)).not.toContain(`invoice:${invoice.uuid}`);
  });

  it('exports in the words of the page, with semicolons for Swiss Excel in German (issue 23 item 6)', async () => {
    const res = await api.request('GET', `${base()}/entries.csv?action=account.terms.accept&lang=de`, {
      as: 'admin',
    });
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n')
      .slice(1);
    expect(rows.length).toBe(await count(api, `action = 'account.terms.accept'`));
    const agb = rows.map((line) => line.split(';')).find((cells) => cells[11] === 'terms:agb')!;
    expect(agb[0]).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
    expect(agb[3]).toBe('Bedingungen akzeptiert');
    expect(agb[4]).toBe('Allgemeine Geschäftsbedingungen');
    expect(agb[9]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(agb[10]).toBe('account.terms.accept');
    expect(agb[12]).toBe(DEMO_USERS.owner.id);
  });

  it('refuses bad filters and cursors with 422, never a 500', async () => {
    for (const query of [
      'cursor=bm90LWEtY3Vyc29y',
      'action=DROP%20TABLE',
      'actor=not-a-uuid',
      'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      'pageSize=1000',
      'sort=asc',
    ]) {
      const res = await api.request('GET', `${base()}/entries?${query}`, { as: 'admin' });
      expect(res.statusCode, query).toBe(422);
    }
  });

  it('keeps the pages stable while new entries arrive: none repeated, none skipped', async () => {
    const before = await all(api, 'admin', '', 200);
    const pages: LogEntry[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const result = await page(api, 'admin', `pageSize=40${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(...result.data);
      cursor = result.meta.nextCursor;
      // Between two pages, someone changes something.
      await api.db.transaction((tx) =>
        writeAudit(tx, {
          accountUuid: MUSTER,
          actor: { uuid: DEMO_USERS.owner.id },
          action: 'account.update',
          target: `account:${MUSTER}`,
          after: { n: n++ },
        }),
      );
    } while (cursor);
    expect(pages.map((e) => e.id)).toEqual(before.map((e) => e.id));
    // The new entries are there on a fresh first page.
    expect((await page(api, 'admin', `pageSize=${n}`)).data.map((e) => e.after)).toEqual(
      [...Array(n).keys()].reverse().map((i) => ({ n: i })),
    );
  });

  it('records support staff opening the log, and shows it to the account', async () => {
    await allowStaff(api, MUSTER, DEMO_USERS.owner.id);
    const res = await api.request('GET', `${base()}/entries?pageSize=1`, { as: 'agent' });
    expect(res.statusCode).toBe(200);
    const newest = (await page(api, 'owner', 'action=support.access&pageSize=1')).data[0]!;
    expect(newest).toMatchObject({ actor: { uuid: DEMO_USERS.agent.id }, actorIsStaff: true });
    expect(newest.target).toContain('/logs/v1/entries');
    const actors = (await api.request('GET', `${base()}/actors`, { as: 'admin' })).json().data;
    expect(actors.map((a: { uuid: string }) => a.uuid)).toEqual(
      expect.arrayContaining([DEMO_USERS.owner.id, DEMO_USERS.employee.id, DEMO_USERS.agent.id]),
    );
  });

  it('exports the filtered log as CSV: BOM, localised header, neutralised formulas, every row', async () => {
    const evil = ['=HYPERLINK("http://evil.example","x")', '+1', '-2', '@SUM(A1)', '\tTab', '\rCR'];
    await api.db.transaction(async (tx) => {
      for (const target of evil) {
        await writeAudit(tx, {
          accountUuid: MUSTER,
          actor: { uuid: DEMO_USERS.admin.id },
          action: 'test.formula',
          target,
        });
      }
    });
    const res = await api.request('GET', `${base()}/entries.csv?action=test.formula&lang=de`, {
      as: 'admin',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="log-Muster-AG-\d{4}-\d\d-\d\d\.csv"; filename\*=UTF-8''log-Muster-AG-/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body.replace(/^\uFEFF/, '').split('\n');
    const rows = lines.slice(1, -1);
    // Newest first; each formula start gets an apostrophe (quoted where the cell needs it), in the "Betroffen"
    // column (the target as the page shows it, here the text itself) and the raw one.
    expect(rows.map((line) => line.split(';')[4])).toEqual([
      '"\'\rCR"',
      "'\tTab",
      "'@SUM(A1)",
      "'-2",
      "'+1",
      expect.any(String),
    ]);
    expect(rows[5]).toContain(';"\'=HYPERLINK(""http://evil.example"",""x"")";');
    const english = await api.request('GET', `${base()}/entries.csv?action=test.formula&lang=en`, {
      as: 'admin',
    });
    expect(english.body.replace(/^\uFEFF/, '').split('\n')[0]).toBe(
      'Time,Person,Email,Action,Concerns,Before,After,IP address,Browser,Time (UTC),Action (key),Target (ID),Person (ID)',
    );
    // The caller's language by default (the demo admin's is German): semicolons, as Swiss Excel splits.
    const german = await api.request('GET', `${base()}/entries.csv?action=test.formula`, { as: 'admin' });
    expect(german.body.replace(/^\uFEFF/, '').split('\n')[0]).toBe(
      'Zeit;Person;E-Mail;Aktion;Betroffen;Vorher;Nachher;IP-Adresse;Browser;Zeit (UTC);Aktion (Schlüssel);Ziel (ID);Person (ID)',
    );
  });

  it('exports as many rows as the filtered log holds, in batches, and only what the role may see', async () => {
    const csv = await api.request('GET', `${base()}/entries.csv`, { as: 'admin' });
    // Rows never contain a raw newline (JSON and addresses do not), so lines count rows.
    expect(csv.body.trimEnd().split('\n').length - 1).toBe(await count(api));
    const own = await api.request('GET', `${base()}/entries.csv`, { as: 'employee' });
    expect(own.body.trimEnd().split('\n').length - 1).toBe((await all(api, 'employee')).length);
    const bad = await api.request(
      'GET',
      `${base()}/entries.csv?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      {
        as: 'admin',
      },
    );
    expect(bad.statusCode).toBe(422);
  });

  it('gives the same file read through the cursor (PostgreSQL) as read in keyset batches (PGlite), and names target users as the pages do', async () => {
    const nobody = '6f1c2b1e-0001-4000-8000-0000000000ee';
    await api.db.transaction(async (tx) => {
      for (const target of [
        `user:${'-'.repeat(36)}`, // the uuid's length, but no uuid: names nobody and breaks nothing
        `member:${DEMO_USERS.employee.id.toUpperCase()}`,
        `user:${nobody}`, // a user that no longer exists
        `user:${DEMO_USERS.coach.id}x`,
      ]) {
        await writeAudit(tx, {
          accountUuid: MUSTER,
          actor: { uuid: DEMO_USERS.admin.id },
          action: 'test.target',
          target,
        });
      }
    });
    const pages = await all(api, 'admin', 'action=test.target');
    expect(pages.map((e) => e.targetUser)).toEqual([
      null,
      { uuid: nobody, name: null, email: null },
      { uuid: DEMO_USERS.employee.id, name: DEMO_USERS.employee.name, email: DEMO_USERS.employee.email },
      null,
    ]);

    const served = await api.request('GET', `${base()}/entries.csv?lang=de`, { as: 'admin' });
    expect(served.statusCode).toBe(200);
    const admin = { uuid: DEMO_USERS.admin.id } as PortalUser;
    const access = { accountUuid: MUSTER, role: 'ADMIN' as const, viaStaff: false };
    // The same database without its cursor, in small batches: the keyset way, across many batch boundaries.
    const keyset = { query: api.db.query.bind(api.db), exec: api.db.exec.bind(api.db) };
    const file = await buffer(logsCsv(readLogBatches(keyset, admin, access, {}, 7), 'de'));
    expect(served.rawPayload.equals(file)).toBe(true);

    // The file's "Betroffen" column is what the pages show: the named person, "Gelöschte Person", else the target
    // itself; the raw target has its own column.
    const lines = served.body.split('\n');
    const everything = await all(api, 'admin');
    expect(lines.length - 2).toBe(everything.length);
    const cells = lines.slice(1, 5).map((line) => line.split(';'));
    expect(cells.map((row) => row[4])).toEqual([
      `user:${DEMO_USERS.coach.id}x`,
      'Gelöschte Person',
      DEMO_USERS.employee.name,
      `user:${'-'.repeat(36)}`,
    ]);
    expect(cells[1]![11]).toBe(`user:${nobody}`);
  });

  it('gives the connection of the cursor back when the reader stops early, every time', async () => {
    if (!api.db.cursor) return; // PGlite reads in keyset batches and holds no connection
    // More early stops than the pool has connections: one kept each time would leave none for the last ones.
    for (let i = 0; i < 12; i += 1) {
      const batches = api.db.cursor('select g from generate_series(1, 100000) g', [], 10);
      expect((await batches.next()).value).toHaveLength(10);
      await batches.return(undefined);
    }
    const { rows } = await api.db.query<{ n: number }>('select 1 as n');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('has no route that changes or deletes an entry', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      const res = await api.request(method, `${base()}/entries`, { as: 'owner', body: {} });
      expect(res.statusCode).toBe(404);
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the log in the database', async () => {
    const total = await count(api);
    await expect(
      api.db.query(`update audit_log set action = 'x' where account_uuid = $1`, [MUSTER]),
    ).rejects.toThrow(/append-only/);
    await expect(api.db.query(`delete from audit_log where account_uuid = $1`, [MUSTER])).rejects.toThrow(
      /append-only/,
    );
    await expect(api.db.query('truncate audit_log')).rejects.toThrow(/append-only/);
    // The purge's setting outside the purge: young entries still cannot go, nor can anything be updated.
    await expect(
      api.db.transaction(async (tx) => {
        await tx.query(`select set_config('portal.audit_purge_before', now()::text, true)`);
        await tx.query(`delete from audit_log where account_uuid = $1`, [MUSTER]);
      }),
    ).rejects.toThrow(/append-only/);
    expect(await count(api)).toBe(total);
    // The one change allowed: the actor reference of a deleted user becomes null, nothing else.
    await expect(
      api.db.query(
        `update audit_log set actor_uuid = null, target = 'x' where id = (select max(id) from audit_log)`,
      ),
    ).rejects.toThrow(/append-only/);
    await api.db.query(`update audit_log set actor_uuid = null where id = (select max(id) from audit_log)`);
  });
  // The purge of entries past the retention, in batches, and as the hourly job: jobs/retention.test.ts.
});

it('sets the purge permission only in the purge', () => {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const users = fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|sql)$/.test(file) && !file.endsWith('.test.ts'))
    .filter((file) => fs.readFileSync(path.join(src, file), 'utf8').includes('portal.audit_purge_before'));
  expect(users.sort()).toEqual([
    'db/audit-purge.ts',
    'db/migrations/010-logs.sql',
    'db/migrations/034-audit-erasure.sql',
  ]);
});

it('sets the erasure permission only in the erasure of a person (decision 232)', () => {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const users = fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|sql)$/.test(file) && !file.endsWith('.test.ts'))
    .filter((file) => fs.readFileSync(path.join(src, file), 'utf8').includes('portal.audit_erasure'));
  expect(users.sort()).toEqual(['db/migrations/034-audit-erasure.sql', 'modules/security/erasure.ts']);
});

import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, type SupportTicketDetail } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { EXE, uploadOf as file } from '../../test/support-tickets.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const ticketsUrl = (account: string) => `/api/accounts/${account}/support/v1/tickets`;
const ticketUrl = (account: string, ticket: string) => `${ticketsUrl(account)}/${ticket}`;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const ticketBody = (overrides: Record<string, unknown> = {}) => ({
  category: 'TECHNICAL',
  severity: 'HIGH',
  subject: '  Export bricht ab  ',
  description: 'Der Export der Rechnungen bricht nach 10 Sekunden ab.',
  staffAccessConsent: true,
  attachments: [],
  ...overrides,
});

async function create(api: TestApi, as: DemoLogin, overrides: Record<string, unknown> = {}) {
  const res = await api.request('POST', ticketsUrl(MUSTER), { as, body: ticketBody(overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: SupportTicketDetail }>().data;
}

async function ticketCount(api: TestApi): Promise<number> {
  const { rows } = await api.db.query<{ n: string }>('select count(*) as n from support_tickets');
  return Number(rows[0]!.n);
}

/** An agent's internal note with an attachment, written directly (the agents' side is not this area's API). */
async function internalNote(api: TestApi, ticketUuid: string, text: string): Promise<string> {
  const fileUuid = crypto.randomUUID();
  await api.db.query(
    `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content)
     values ($1, $2, 'support-attachment', 'text/plain', 6, 'x', 'secret.txt', $3)`,
    [fileUuid, MUSTER, Buffer.from('secret')],
  );
  const { rows } = await api.db.query<{ id: string }>(
    `insert into support_messages (ticket_uuid, author_uuid, author_kind, internal, body)
     values ($1, $2, 'AGENT', true, $3) returning id`,
    [ticketUuid, DEMO_USERS.agent.id, text],
  );
  await api.db.query(
    'insert into support_attachments (file_uuid, message_id, ticket_uuid) values ($1, $2, $3)',
    [fileUuid, rows[0]!.id, ticketUuid],
  );
  return fileUuid;
}

describeApi('support tickets API, the customer side', (api) => {
  it('opens a ticket with its description: number, trimmed subject, status OPEN waiting for an agent, audit', async () => {
    const detail = await create(api, 'admin');
    expect(detail.ticket).toMatchObject({
      subject: 'Export bricht ab',
      status: 'OPEN',
      category: 'TECHNICAL',
      severity: 'HIGH',
      staffAccessConsent: true,
      createdBy: { uuid: DEMO_USERS.admin.id, name: DEMO_USERS.admin.name },
      messageCount: 1,
    });
    expect(detail.ticket.number).toBeGreaterThan(10000);
    expect(detail.ticket.awaitingAgentSince).not.toBeNull();
    expect(detail.messages).toMatchObject([
      {
        authorKind: 'CUSTOMER',
        body: 'Der Export der Rechnungen bricht nach 10 Sekunden ab.',
        attachments: [],
      },
    ]);
    const entry = (await api.audit(MUSTER)).find((e) => e.action === 'support.ticket.create');
    expect(entry).toMatchObject({
      action: 'support.ticket.create',
      target: `ticket:${detail.ticket.uuid}`,
      actor_uuid: DEMO_USERS.admin.id,
    });
  });

  it('creates one ticket for a double submit with the same Idempotency-Key', async () => {
    const before = await ticketCount(api);
    const send = () =>
      api.request('POST', ticketsUrl(MUSTER), {
        as: 'employee',
        body: ticketBody({ subject: 'Doppelt' }),
        headers: { 'idempotency-key': 'support-double-1' },
      });
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    const numbers = [first, second, third]
      .filter((res) => res.statusCode === 201)
      .map((res) => res.json<{ data: SupportTicketDetail }>().data.ticket.number);
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    expect(new Set(numbers).size).toBe(1);
    expect(await ticketCount(api)).toBe(before + 1);
  });

  it('refuses missing texts and unknown keys (422) and creates nothing', async () => {
    const before = await ticketCount(api);
    const blank = await api.request('POST', ticketsUrl(MUSTER), {
      as: 'admin',
      body: ticketBody({ subject: '   ', description: '' }),
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().details.fields).toEqual({ subject: 'required', description: 'required' });
    const category = await api.request('POST', ticketsUrl(MUSTER), {
      as: 'admin',
      body: ticketBody({ category: 'SALES' }),
    });
    expect(category.statusCode).toBe(422);
    expect(await ticketCount(api)).toBe(before);
  });

  it('keeps up to five attachments of at most 10 MB, typed from their content, and refuses more', async () => {
    const before = await ticketCount(api);
    const six = Array.from({ length: 6 }, (_, i) => file(`n${i}.txt`, `note ${i}`));
    const tooMany = await api.request('POST', ticketsUrl(MUSTER), {
      as: 'admin',
      body: ticketBody({ attachments: six }),
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().details.fields).toEqual({ attachments: 'attachmentsTooMany' });

    const big = Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 'a');
    const tooLarge = await api.request('POST', ticketsUrl(MUSTER), {
      as: 'admin',
      body: ticketBody({ attachments: [file('ok.txt', 'fine'), file('big.txt', big)] }),
    });
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.json().details.fields).toEqual({ 'attachments.1': 'attachmentTooLarge' });
    expect(await ticketCount(api)).toBe(before);

    const detail = await create(api, 'admin', {
      attachments: [
        file('screenshot.pdf', PNG),
        file('Rechnung.pdf', PDF),
        file('daten.csv', 'a;b\n1;2\n'),
        file('protokoll.log', 'Zeile 1\nZeile 2 – äöü\n'),
        file('exactly.txt', Buffer.alloc(ATTACHMENT_MAX_BYTES, 'b')),
      ],
    });
    expect(detail.messages[0]!.attachments.map((a) => [a.fileName, a.contentType])).toEqual([
      ['screenshot.png', 'image/png'],
      ['Rechnung.pdf', 'application/pdf'],
      ['daten.csv', 'text/csv'],
      ['protokoll.txt', 'text/plain'],
      ['exactly.txt', 'text/plain'],
    ]);
  }, 120_000); // several uploads of up to 10 MB each: slow on a busy 2-core machine

  it('refuses executables, markup and binary data whatever their name says', async () => {
    const before = await ticketCount(api);
    for (const [name, content] of [
      ['setup.pdf', EXE],
      ['setup.txt', EXE],
      ['page.txt', '<!DOCTYPE html><html><script>alert(1)</script></html>'],
      ['page.pdf', '  <html><body>hi</body></html>'],
      ['image.txt', '<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
      ['data.xml.txt', '<?xml version="1.0"?><a/>'],
      ['nul.txt', 'a\0b'],
      ['latin1.txt', Buffer.from([0x66, 0xfc, 0x72])],
      ['archive.csv', Buffer.from('504b0304140000000800', 'hex')],
    ] as const) {
      const res = await api.request('POST', ticketsUrl(MUSTER), {
        as: 'admin',
        body: ticketBody({ attachments: [file(name, content)] }),
      });
      expect([name, res.statusCode, res.json().details?.fields]).toEqual([
        name,
        422,
        { 'attachments.0': 'attachmentType' },
      ]);
    }
    expect(await ticketCount(api)).toBe(before);
  });

  it('serves an attachment as a download with the safe headers, only to who may read the ticket', async () => {
    const detail = await create(api, 'employee', { attachments: [file('notiz.txt', 'Grüezi')] });
    const fileUuid = detail.messages[0]!.attachments[0]!.uuid;
    const url = `${ticketUrl(MUSTER, detail.ticket.uuid)}/attachments/${fileUuid}`;
    const res = await api.request('GET', url, { as: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('Grüezi');
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-disposition': `attachment; filename="notiz.txt"; filename*=UTF-8''notiz.txt`,
    });
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect((await api.request('GET', url, { as: 'inhaber' })).statusCode).toBe(404);
    // Another ticket's path does not reach the file.
    const other = await create(api, 'admin');
    const wrongTicket = `${ticketUrl(MUSTER, other.ticket.uuid)}/attachments/${fileUuid}`;
    expect((await api.request('GET', wrongTicket, { as: 'admin' })).statusCode).toBe(404);
    // An EMPLOYEE reads only their own tickets' files.
    const adminFile = await create(api, 'admin', { attachments: [file('a.txt', 'admin')] });
    const adminUrl = `${ticketUrl(MUSTER, adminFile.ticket.uuid)}/attachments/${adminFile.messages[0]!.attachments[0]!.uuid}`;
    expect((await api.request('GET', adminUrl, { as: 'employee' })).statusCode).toBe(404);
  });

  it("shows an EMPLOYEE only their own tickets; ADMIN and above see all of the account's", async () => {
    const own = await create(api, 'employee', { subject: 'Meins' });
    const admins = await create(api, 'admin', { subject: 'Vom Admin' });
    const employeeList = await api.request('GET', `${ticketsUrl(MUSTER)}?pageSize=100`, { as: 'employee' });
    const employeeUuids = employeeList.json<{ data: { uuid: string }[] }>().data.map((t) => t.uuid);
    expect(employeeUuids).toContain(own.ticket.uuid);
    expect(employeeUuids).not.toContain(admins.ticket.uuid);
    for (const t of employeeList.json<{ data: { createdBy: { uuid: string } }[] }>().data) {
      expect(t.createdBy.uuid).toBe(DEMO_USERS.employee.id);
    }
    expect(
      (await api.request('GET', ticketUrl(MUSTER, admins.ticket.uuid), { as: 'employee' })).statusCode,
    ).toBe(404);
    for (const as of ['admin', 'coach', 'owner'] as const) {
      const list = await api.request('GET', `${ticketsUrl(MUSTER)}?pageSize=100`, { as });
      const uuids = list.json<{ data: { uuid: string }[] }>().data.map((t) => t.uuid);
      expect(uuids).toEqual(expect.arrayContaining([own.ticket.uuid, admins.ticket.uuid]));
    }
  });

  it('pages the list on the server and filters by status', async () => {
    await create(api, 'owner');
    const first = await api.request('GET', `${ticketsUrl(MUSTER)}?page=1&pageSize=2`, { as: 'owner' });
    const body = first.json<{ data: { uuid: string; createdAt: string }[]; meta: { total: number } }>();
    expect(body.data).toHaveLength(2);
    expect(body.meta.total).toBeGreaterThan(2);
    const second = await api.request('GET', `${ticketsUrl(MUSTER)}?page=2&pageSize=2`, { as: 'owner' });
    const secondUuids = second.json<{ data: { uuid: string }[] }>().data.map((t) => t.uuid);
    expect(secondUuids.some((uuid) => body.data.some((t) => t.uuid === uuid))).toBe(false);
    const solved = await api.request('GET', `${ticketsUrl(MUSTER)}?status=SOLVED`, { as: 'owner' });
    for (const t of solved.json<{ data: { status: string }[] }>().data) expect(t.status).toBe('SOLVED');
    const tooBig = await api.request('GET', `${ticketsUrl(MUSTER)}?pageSize=1000`, { as: 'owner' });
    expect(tooBig.statusCode).toBe(422);
  });

  it("answers 404 for another account's ticket, also through the caller's own account", async () => {
    const detail = await create(api, 'owner');
    const stranger = await api.request('GET', ticketUrl(MUSTER, detail.ticket.uuid), { as: 'inhaber' });
    expect(stranger.statusCode).toBe(404);
    const viaOwn = await api.request('GET', ticketUrl(BEISPIEL, detail.ticket.uuid), { as: 'inhaber' });
    expect(viaOwn.statusCode).toBe(404);
    for (const action of ['reopen', 'close']) {
      const res = await api.request('POST', `${ticketUrl(BEISPIEL, detail.ticket.uuid)}/${action}`, {
        as: 'inhaber',
      });
      expect(res.statusCode).toBe(404);
    }
    const reply = await api.request('POST', `${ticketUrl(BEISPIEL, detail.ticket.uuid)}/messages`, {
      as: 'inhaber',
      body: { body: 'Hallo', attachments: [] },
    });
    expect(reply.statusCode).toBe(404);
  });

  it('a reply to a ticket waiting for the customer opens it again and starts the waiting time', async () => {
    const detail = await create(api, 'employee');
    await api.db.query(
      `update support_tickets set status = 'WAITING_FOR_CUSTOMER', awaiting_agent_since = null where uuid = $1`,
      [detail.ticket.uuid],
    );
    const res = await api.request('POST', `${ticketUrl(MUSTER, detail.ticket.uuid)}/messages`, {
      as: 'employee',
      body: { body: '  Hier die Angaben.  ', attachments: [file('log.csv', 'x;y\n')] },
    });
    expect(res.statusCode).toBe(201);
    const after = res.json<{ data: SupportTicketDetail }>().data;
    expect(after.ticket.status).toBe('OPEN');
    expect(after.ticket.awaitingAgentSince).not.toBeNull();
    expect(after.messages.at(-1)).toMatchObject({
      body: 'Hier die Angaben.',
      authorKind: 'CUSTOMER',
      attachments: [{ fileName: 'log.csv', contentType: 'text/csv' }],
    });
    const [entry] = await api.audit(MUSTER);
    expect(entry).toMatchObject({ action: 'support.ticket.reply', target: `ticket:${detail.ticket.uuid}` });

    await api.db.query(
      `update support_tickets set status = 'CLOSED', staff_access_consent = false where uuid = $1`,
      [detail.ticket.uuid],
    );
    const closed = await api.request('POST', `${ticketUrl(MUSTER, detail.ticket.uuid)}/messages`, {
      as: 'employee',
      body: { body: 'Noch etwas', attachments: [] },
    });
    expect(closed.statusCode).toBe(409);
  });

  it('reopens a solved ticket within 14 days, not later, and closes a ticket for good', async () => {
    const detail = await create(api, 'admin', { staffAccessConsent: false });
    const url = ticketUrl(MUSTER, detail.ticket.uuid);
    const solve = (days: number) =>
      api.db.query(
        `update support_tickets set status = 'SOLVED', awaiting_agent_since = null,
                solved_at = now() - make_interval(days => $2) where uuid = $1`,
        [detail.ticket.uuid, days],
      );
    await solve(15);
    const late = await api.request('POST', `${url}/reopen`, { as: 'admin' });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('TICKET_NOT_REOPENABLE');
    await solve(13);
    const reopened = await api.request('POST', `${url}/reopen`, { as: 'admin' });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data.ticket).toMatchObject({ status: 'OPEN', solvedAt: null });
    expect(reopened.json().data.ticket.awaitingAgentSince).not.toBeNull();
    const open = await api.request('POST', `${url}/reopen`, { as: 'admin' });
    expect(open.statusCode).toBe(409);

    const closed = await api.request('POST', `${url}/close`, { as: 'admin' });
    expect(closed.json().data.ticket).toMatchObject({ status: 'CLOSED', awaitingAgentSince: null });
    expect((await api.request('POST', `${url}/close`, { as: 'admin' })).statusCode).toBe(409);
    expect((await api.request('POST', `${url}/reopen`, { as: 'admin' })).statusCode).toBe(409);
    const actions = (await api.audit(MUSTER)).slice(0, 2).map((e) => e.action);
    expect(actions).toEqual(['support.ticket.close', 'support.ticket.reopen']);
  });

  it('lets the customer allow staff access on an open ticket and end it at any time, each in the log', async () => {
    const detail = await create(api, 'employee', { staffAccessConsent: false });
    const url = `${ticketUrl(MUSTER, detail.ticket.uuid)}/consent`;
    const consentLog = async () =>
      (
        await api.db.query<{ action: string; actor_uuid: string; before: unknown; after: unknown }>(
          `select action, actor_uuid, before, after from audit_log
          where target = $1 and action like 'support.consent.%' order by id`,
          [`ticket:${detail.ticket.uuid}`],
        )
      ).rows;
    const set = (staffAccessConsent: boolean, as: DemoLogin = 'employee') =>
      api.request('PUT', url, { as, body: { staffAccessConsent } });

    const on = await set(true);
    expect(on.json().data.ticket.staffAccessConsent).toBe(true);
    const off = await set(false);
    expect(off.json().data.ticket.staffAccessConsent).toBe(false);
    // The same choice again changes nothing and writes nothing.
    expect((await set(false)).statusCode).toBe(200);
    expect(await consentLog()).toEqual([
      {
        action: 'support.consent.grant',
        actor_uuid: DEMO_USERS.employee.id,
        before: { staffAccessConsent: false },
        after: { staffAccessConsent: true },
      },
      {
        action: 'support.consent.end',
        actor_uuid: DEMO_USERS.employee.id,
        before: { staffAccessConsent: true },
        after: { staffAccessConsent: false, reason: 'WITHDRAWN' },
      },
    ]);

    // Staff who opened the account cannot give it (nor take it) in the customer's name.
    const staff = await set(true, 'agent');
    expect(staff.statusCode).toBe(403);
    expect(
      (await api.request('GET', ticketUrl(MUSTER, detail.ticket.uuid), { as: 'employee' })).json().data.ticket
        .staffAccessConsent,
    ).toBe(false);

    // Closing the ticket ends it, in the log with its reason; a closed ticket cannot get it again.
    await set(true);
    const closed = await api.request('POST', `${ticketUrl(MUSTER, detail.ticket.uuid)}/close`, {
      as: 'employee',
    });
    expect(closed.json().data.ticket).toMatchObject({ status: 'CLOSED', staffAccessConsent: false });
    expect((await consentLog()).at(-1)).toMatchObject({
      action: 'support.consent.end',
      actor_uuid: DEMO_USERS.employee.id,
      after: { staffAccessConsent: false, reason: 'CLOSED' },
    });
    const again = await set(true);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('TICKET_NOT_OPEN');
    expect((await consentLog()).length).toBe(4);
  });

  it('logs the consent given with a new ticket as a grant', async () => {
    const detail = await create(api, 'admin', { staffAccessConsent: true });
    const actions = (await api.audit(MUSTER)).slice(0, 2).map((e) => [e.action, e.target]);
    expect(actions).toEqual([
      ['support.consent.grant', `ticket:${detail.ticket.uuid}`],
      ['support.ticket.create', `ticket:${detail.ticket.uuid}`],
    ]);
  });

  it("never gives a customer an agent's internal note: not in the detail, list, answers or files", async () => {
    const detail = await create(api, 'employee');
    const secret = `Interne Notiz ${crypto.randomUUID()}`;
    const fileUuid = await internalNote(api, detail.ticket.uuid, secret);
    const url = ticketUrl(MUSTER, detail.ticket.uuid);
    const responses = [
      await api.request('GET', url, { as: 'employee' }),
      await api.request('GET', url, { as: 'owner' }),
      await api.request('GET', url, { as: 'agent' }),
      await api.request('GET', `${ticketsUrl(MUSTER)}?pageSize=100`, { as: 'owner' }),
      await api.request('POST', `${url}/messages`, {
        as: 'employee',
        body: { body: 'Und?', attachments: [] },
      }),
      await api.request('PUT', `${url}/consent`, { as: 'employee', body: { staffAccessConsent: true } }),
      await api.request('POST', `${url}/close`, { as: 'employee' }),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBeLessThan(300);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain(fileUuid);
      expect(res.body).not.toContain('secret.txt');
    }
    const last = responses.at(-1)!.json<{ data: SupportTicketDetail }>().data;
    expect(last.messages.every((m) => !m.internal)).toBe(true);
    expect(last.ticket.messageCount).toBe(last.messages.length);
    const download = await api.request('GET', `${url}/attachments/${fileUuid}`, { as: 'owner' });
    expect(download.statusCode).toBe(404);
  });

  it('seeds two demo tickets on Muster AG, one waiting for the customer, answered by the demo agent', async () => {
    const { rows } = await api.db.query<{ subject: string; status: string; agents: string[] }>(
      `select t.subject, t.status,
              array(select distinct m.author_uuid::text from support_messages m
                     where m.ticket_uuid = t.uuid and m.author_kind = 'AGENT') as agents
         from support_tickets t where t.uuid::text like '6f1c2b1e-0005-%' order by t.uuid`,
    );
    expect(rows.map((row) => row.status)).toEqual(['WAITING_FOR_CUSTOMER', 'OPEN']);
    for (const row of rows) expect(row.agents).toEqual([DEMO_USERS.agent.id]);
    const list = await api.request('GET', `${ticketsUrl(MUSTER)}?status=WAITING_FOR_CUSTOMER`, {
      as: 'employee',
    });
    expect(list.json().data.map((t: { subject: string }) => t.subject)).toContain(rows[0]!.subject);
  });

  it('tells every signed-in user how to reach support, from the configuration', async () => {
    const res = await api.request('GET', '/api/support/v1/info', { as: 'employee' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      hours: { days: [1, 2, 3, 4, 5], from: '08:00', to: '17:00', timeZone: 'Europe/Zurich' },
      responseHours: { LOW: 40, NORMAL: 16, HIGH: 8, CRITICAL: 2 },
    });
    expect(res.json().data.email).toMatch(/^support@/);
  });
});

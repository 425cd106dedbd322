import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type ApiRequest, type TestApi } from '../../test/api.ts';
import { ATTACHMENT_MAX_BYTES } from '@portal/contract';
import { EXE, allowStaff, insertTestTicket, staffUser, uploadOf } from '../../test/support-tickets.ts';

const AGENT = '/api/support/v1/agent';
const MUSTER = DEMO_ACCOUNTS.muster;
const NEU = DEMO_ACCOUNTS.neu;
const OWNER = DEMO_USERS.owner.id;
const NEU_OWNER = DEMO_USERS.newowner.id;

type Login = Awaited<ReturnType<typeof staffUser>>;
type As = ApiRequest['as'];

async function notificationsOf(api: TestApi, userUuid: string, ticketUuid: string) {
  const { rows } = await api.db.query<{
    type: string;
    params: Record<string, unknown>;
    account_uuid: string;
  }>(
    `select type, params, account_uuid from notifications
      where user_uuid = $1 and params->>'ticketUuid' = $2 order by id`,
    [userUuid, ticketUuid],
  );
  return rows;
}

async function auditOf(api: TestApi, account: string, ticketUuid: string) {
  const { rows } = await api.db.query<{
    action: string;
    actor_uuid: string;
    before: unknown;
    after: unknown;
  }>(
    `select action, actor_uuid, before, after from audit_log where account_uuid = $1 and target = $2 order by id`,
    [account, `ticket:${ticketUuid}`],
  );
  return rows;
}

describeApi('support agents API', (api) => {
  let support: Login;
  let manager: Login;
  let admin: Login;
  beforeAll(async () => {
    support = await staffUser(api, 'SUPPORT');
    manager = await staffUser(api, 'SUPPORT_MANAGER');
    admin = await staffUser(api, 'PORTAL_ADMIN');
  });

  it('refuses the queue to customers (403) and lists it for every support role', async () => {
    for (const as of ['owner', 'employee', 'coach'] as const) {
      const res = await api.request('GET', `${AGENT}/tickets`, { as });
      expect(res.statusCode, as).toBe(403);
    }
    for (const as of ['agent', support.as, manager.as, admin.as] as As[]) {
      expect((await api.request('GET', `${AGENT}/tickets`, { as })).statusCode).toBe(200);
    }
  });

  it('pages the queue longest waiting first, with the total, across accounts', async () => {
    // A fresh owner isolates these tickets: the filter `assignee` names them.
    const owner = await staffUser(api, 'SUPPORT_AGENT');
    const made = [];
    for (const [i, hours] of [5, 50, 1, 20, 8].entries()) {
      made.push({
        hours,
        ticket: await insertTestTicket(api, {
          account: i % 2 ? NEU : MUSTER,
          createdBy: i % 2 ? NEU_OWNER : OWNER,
          assignee: owner.uuid,
          waitingHours: hours,
        }),
      });
    }
    const waitingForCustomer = await insertTestTicket(api, {
      account: MUSTER,
      createdBy: OWNER,
      assignee: owner.uuid,
      status: 'WAITING_FOR_CUSTOMER',
      waitingHours: null,
    });
    const expected = [
      ...made.sort((a, b) => b.hours - a.hours).map((m) => m.ticket.uuid),
      waitingForCustomer.uuid,
    ];

    const first = await api.request('GET', `${AGENT}/tickets?assignee=${owner.uuid}&pageSize=4`, {
      as: 'agent',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().meta).toEqual({ total: 6, page: 1, pageSize: 4 });
    const second = await api.request('GET', `${AGENT}/tickets?assignee=${owner.uuid}&pageSize=4&page=2`, {
      as: 'agent',
    });
    const uuids = [...first.json().data, ...second.json().data].map((t: { uuid: string }) => t.uuid);
    expect(uuids).toEqual(expected);
    expect(first.json().data[0]).toMatchObject({
      accountName: 'Neu Sàrl',
      assignee: { uuid: owner.uuid },
      status: 'OPEN',
    });
    expect(first.json().data[2].accountName).toBe('Muster AG');
  });

  it("pages every status in the queue's one order, across statuses (each read off its index, decision 259)", async () => {
    const owner = await staffUser(api, 'SUPPORT_AGENT');
    const base = { account: MUSTER, createdBy: OWNER, assignee: owner.uuid, waitingHours: null };
    const closed = await insertTestTicket(api, { ...base, status: 'CLOSED' });
    const recent = await insertTestTicket(api, { ...base, waitingHours: 5 });
    const solved = await insertTestTicket(api, { ...base, status: 'SOLVED' });
    const waiting = await insertTestTicket(api, { ...base, status: 'WAITING_FOR_CUSTOMER' });
    const longest = await insertTestTicket(api, { ...base, waitingHours: 30 });
    const closedLater = await insertTestTicket(api, { ...base, status: 'CLOSED' });

    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await api.request(
        'GET',
        `${AGENT}/tickets?status=ALL&assignee=${owner.uuid}&pageSize=2&page=${page}`,
        { as: 'agent' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().meta).toEqual({ total: 6, page, pageSize: 2 });
      pages.push(...res.json().data.map((t: { uuid: string }) => t.uuid));
    }
    // Waiting for an agent, longest first; then the others by their last change.
    expect(pages).toEqual([longest, recent, closed, solved, waiting, closedLater].map((t) => t.uuid));
  });

  it('leaves out the tickets of an account past its deletion, from the pages and the totals (decision 260)', async () => {
    const owner = await staffUser(api, 'SUPPORT_AGENT');
    const at = (account: string, status?: 'CLOSED') =>
      insertTestTicket(api, {
        account,
        createdBy: OWNER,
        assignee: owner.uuid,
        ...(status ? { status } : {}),
      });
    const muster = [await at(MUSTER), await at(MUSTER, 'CLOSED')];
    await at(NEU);
    await at(NEU, 'CLOSED');
    const list = async (query: string) => {
      const res = await api.request('GET', `${AGENT}/tickets?assignee=${owner.uuid}&pageSize=1&${query}`, {
        as: 'agent',
      });
      expect(res.statusCode, query).toBe(200);
      return { uuids: res.json().data.map((t: { uuid: string }) => t.uuid), total: res.json().meta.total };
    };
    expect((await list('status=ALL')).total).toBe(4);
    await api.db.query(`update accounts set available_until = now() - interval '1 minute' where uuid = $1`, [
      NEU,
    ]);
    try {
      expect(await list('')).toEqual({ uuids: [muster[0]!.uuid], total: 1 });
      expect(await list('status=CLOSED')).toEqual({ uuids: [muster[1]!.uuid], total: 1 });
      expect(await list('status=ALL&page=2')).toEqual({ uuids: [muster[1]!.uuid], total: 2 });
      expect(await list('status=ALL&page=3')).toEqual({ uuids: [], total: 2 });
    } finally {
      await api.db.query(`update accounts set available_until = null where uuid = $1`, [NEU]);
    }
  });

  it('filters the queue by status, severity, category, assignee and waiting time', async () => {
    const owner = await staffUser(api, 'SUPPORT_AGENT');
    const base = { account: MUSTER, createdBy: OWNER, assignee: owner.uuid };
    const solved = await insertTestTicket(api, { ...base, status: 'SOLVED', waitingHours: null });
    const critical = await insertTestTicket(api, { ...base, severity: 'CRITICAL', category: 'BILLING' });
    const old = await insertTestTicket(api, { ...base, waitingHours: 30 });
    const unassigned = await insertTestTicket(api, { ...base, assignee: null, waitingHours: 30 });
    const mine = await insertTestTicket(api, { ...base, assignee: DEMO_USERS.agent.id });

    const list = async (query: string, as: As = 'agent') => {
      const res = await api.request('GET', `${AGENT}/tickets?pageSize=100&${query}`, { as });
      expect(res.statusCode, query).toBe(200);
      return res.json().data.map((t: { uuid: string }) => t.uuid) as string[];
    };
    const ownedBy = `assignee=${owner.uuid}`;
    // Active (open or waiting for the customer) unless a status is asked for.
    expect(await list(ownedBy)).not.toContain(solved.uuid);
    expect(await list(`${ownedBy}&status=SOLVED`)).toEqual([solved.uuid]);
    expect(await list(`${ownedBy}&status=ALL`)).toHaveLength(3);
    expect(await list(`${ownedBy}&severity=CRITICAL`)).toEqual([critical.uuid]);
    expect(await list(`${ownedBy}&category=BILLING`)).toEqual([critical.uuid]);
    expect(await list(`${ownedBy}&waitingHours=24`)).toEqual([old.uuid]);
    const free = await list('assignee=unassigned&waitingHours=24');
    expect(free).toContain(unassigned.uuid);
    expect(free).not.toContain(old.uuid);
    expect(await list('assignee=mine')).toContain(mine.uuid);
    expect(await list('assignee=mine')).not.toContain(old.uuid);

    for (const bad of [
      'status=DONE',
      'waitingHours=0',
      'severity=URGENT',
      'assignee=someone',
      'pageSize=101',
    ]) {
      expect((await api.request('GET', `${AGENT}/tickets?${bad}`, { as: 'agent' })).statusCode, bad).toBe(
        422,
      );
    }
  });

  it('shows agents the whole conversation with internal notes marked, and the account; reading is logged', async () => {
    const ticket = await insertTestTicket(api, {
      account: MUSTER,
      createdBy: OWNER,
      body: 'It does not work.',
    });
    const note = await api.request('POST', `${AGENT}/tickets/${ticket.uuid}/notes`, {
      as: support.as,
      body: { body: 'Customer is on the old plan.' },
    });
    expect(note.statusCode).toBe(201);
    const res = await api.request('GET', `${AGENT}/tickets/${ticket.uuid}`, { as: 'agent' });
    expect(res.statusCode).toBe(200);
    const { ticket: read, messages } = res.json().data;
    expect(read).toMatchObject({ uuid: ticket.uuid, accountName: 'Muster AG', accountUuid: MUSTER });
    expect(messages).toMatchObject([
      { authorKind: 'CUSTOMER', internal: false, body: 'It does not work.', authorUuid: OWNER },
      { authorKind: 'AGENT', internal: true, body: 'Customer is on the old plan.', authorUuid: support.uuid },
    ]);
    const audit = await auditOf(api, MUSTER, ticket.uuid);
    expect(audit.map((a) => a.action)).toEqual(['support.agent.note', 'support.access']);
    // The log says that a note was written, never what it says.
    expect(JSON.stringify(audit)).not.toContain('old plan');

    const unknown = await api.request('GET', `${AGENT}/tickets/${crypto.randomUUID()}`, { as: 'agent' });
    expect(unknown.statusCode).toBe(404);
    expect((await api.request('GET', `${AGENT}/tickets/${ticket.uuid}`, { as: 'owner' })).statusCode).toBe(
      403,
    );
  });

  it('lets SUPPORT read and note only; replies, status and taking tickets need SUPPORT_AGENT', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER });
    const url = `${AGENT}/tickets/${ticket.uuid}`;
    const refused = [
      await api.request('POST', `${url}/replies`, { as: support.as, body: { body: 'Hello' } }),
      await api.request('PUT', `${url}/status`, { as: support.as, body: { status: 'SOLVED' } }),
      await api.request('PUT', `${url}/assignee`, { as: support.as, body: { assigneeUuid: support.uuid } }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    expect(refused[0]!.json().message).toBe('Answering customers needs the SUPPORT_AGENT role');
    // Nothing changed.
    const read = (await api.request('GET', url, { as: support.as })).json().data;
    expect(read.ticket).toMatchObject({ status: 'OPEN', assignee: null });
    expect(read.messages).toHaveLength(1);
    const customers = await api.request('POST', `${url}/notes`, { as: 'owner', body: { body: 'x' } });
    expect(customers.statusCode).toBe(403);
  });

  it('answers the customer and tells the creator; a reply may set the status, told once', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER, waitingHours: 3 });
    const url = `${AGENT}/tickets/${ticket.uuid}`;
    const reply = await api.request('POST', `${url}/replies`, {
      as: 'agent',
      body: { body: 'Secret reply text 1' },
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().data.ticket).toMatchObject({ status: 'OPEN', awaitingAgentSince: null });
    expect(reply.json().data.messages.at(-1)).toMatchObject({ authorKind: 'AGENT', internal: false });
    const params = { ticketUuid: ticket.uuid, ticketNumber: ticket.number, subject: ticket.subject };
    expect(await notificationsOf(api, OWNER, ticket.uuid)).toEqual([
      { type: 'ticket.answered', params, account_uuid: MUSTER },
    ]);

    const waiting = await api.request('POST', `${url}/replies`, {
      as: 'agent',
      body: { body: 'Secret reply text 2', status: 'WAITING_FOR_CUSTOMER' },
    });
    expect(waiting.json().data.ticket.status).toBe('WAITING_FOR_CUSTOMER');
    const types = (await notificationsOf(api, OWNER, ticket.uuid)).map((n) => n.type);
    expect(types).toEqual(['ticket.answered', 'ticket.waiting_for_customer']);

    const audit = await auditOf(api, MUSTER, ticket.uuid);
    expect(audit.map((a) => a.action)).toEqual(['support.agent.reply', 'support.agent.reply']);
    expect(audit[1]).toMatchObject({
      actor_uuid: DEMO_USERS.agent.id,
      before: { status: 'OPEN' },
      after: { status: 'WAITING_FOR_CUSTOMER' },
    });
    const bodies = await api.db.query(`select 1 from notifications where params::text like '%Secret reply%'`);
    expect(bodies.rows).toHaveLength(0);

    for (const body of ['', '   \n ']) {
      const empty = await api.request('POST', `${url}/replies`, { as: 'agent', body: { body } });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().details.fields).toEqual({ body: expect.any(String) });
    }
    expect((await api.request('GET', url, { as: 'agent' })).json().data.messages).toHaveLength(3);
  });

  it('notifies waiting-for-customer and solved on a status change, nothing for open or the same status', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER });
    const url = `${AGENT}/tickets/${ticket.uuid}/status`;
    const set = (status: string) => api.request('PUT', url, { as: 'agent', body: { status } });
    expect((await set('WAITING_FOR_CUSTOMER')).statusCode).toBe(200);
    expect((await set('WAITING_FOR_CUSTOMER')).statusCode).toBe(200);
    expect((await set('OPEN')).json().data.ticket.awaitingAgentSince).not.toBeNull();
    const solved = await set('SOLVED');
    expect(solved.json().data.ticket).toMatchObject({ status: 'SOLVED', awaitingAgentSince: null });
    expect(solved.json().data.ticket.solvedAt).not.toBeNull();
    const notes = await notificationsOf(api, OWNER, ticket.uuid);
    expect(notes.map((n) => n.type)).toEqual(['ticket.waiting_for_customer', 'ticket.solved']);
    expect(notes[1]!.params).toEqual({
      ticketUuid: ticket.uuid,
      ticketNumber: ticket.number,
      subject: ticket.subject,
    });
    const audit = await auditOf(api, MUSTER, ticket.uuid);
    expect(audit.map((a) => [a.before, a.after])).toEqual([
      [{ status: 'OPEN' }, { status: 'WAITING_FOR_CUSTOMER' }],
      [{ status: 'WAITING_FOR_CUSTOMER' }, { status: 'OPEN' }],
      [{ status: 'OPEN' }, { status: 'SOLVED' }],
    ]);

    expect((await set('CLOSED')).statusCode).toBe(200);
    const afterClose = [
      await set('OPEN'),
      await api.request('POST', `${AGENT}/tickets/${ticket.uuid}/replies`, {
        as: 'agent',
        body: { body: 'Hi' },
      }),
    ];
    expect(afterClose.map((r) => r.statusCode)).toEqual([409, 409]);
    expect((await set('FINISHED')).statusCode).toBe(422);
  });

  it('never notifies for an internal note, nor a creator who left the account', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER });
    const before = (
      await api.db.query(`select updated_at from support_tickets where uuid = $1`, [ticket.uuid])
    ).rows[0];
    await api.request('POST', `${AGENT}/tickets/${ticket.uuid}/notes`, {
      as: 'agent',
      body: { body: 'note' },
    });
    expect(await notificationsOf(api, OWNER, ticket.uuid)).toEqual([]);
    // The customer's "last changed" does not move for a note.
    const after = (
      await api.db.query(`select updated_at from support_tickets where uuid = $1`, [ticket.uuid])
    ).rows[0];
    expect(after).toEqual(before);

    const gone = await staffUser(api, 'STANDARD');
    const left = await insertTestTicket(api, { account: MUSTER, createdBy: gone.uuid });
    const res = await api.request('POST', `${AGENT}/tickets/${left.uuid}/replies`, {
      as: 'agent',
      body: { body: 'Answer' },
    });
    expect(res.statusCode).toBe(201);
    expect(await notificationsOf(api, gone.uuid, left.uuid)).toEqual([]);
  });

  it('never lets an internal note reach the customer: not the ticket, the list, the log or a notification', async () => {
    const marker = `note-${crypto.randomUUID()}`;
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER, body: 'Customer text' });
    const agentUrl = `${AGENT}/tickets/${ticket.uuid}`;
    await api.request('POST', `${agentUrl}/notes`, { as: 'agent', body: { body: `Internal ${marker}` } });
    await api.request('POST', `${agentUrl}/replies`, {
      as: 'agent',
      body: { body: 'Public answer', status: 'SOLVED' },
    });
    await api.request('POST', `${agentUrl}/notes`, { as: support.as, body: { body: `Later ${marker}` } });

    const customer = `/api/accounts/${MUSTER}/support/v1/tickets`;
    const detail = await api.request('GET', `${customer}/${ticket.uuid}`, { as: 'owner' });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.messages.map((m: { body: string }) => m.body)).toEqual([
      'Customer text',
      'Public answer',
    ]);
    expect(detail.json().data.ticket.messageCount).toBe(2);
    const list = await api.request('GET', `${customer}?pageSize=100`, { as: 'owner' });
    const log = await api.request('GET', `/api/accounts/${MUSTER}/logs/v1/entries?pageSize=100`, {
      as: 'owner',
    });
    for (const answer of [detail, list, log]) expect(answer.body).not.toContain(marker);
    const notes = await api.db.query(`select params from notifications where params::text like $1`, [
      `%${marker}%`,
    ]);
    expect(notes.rows).toEqual([]);
    expect((await notificationsOf(api, OWNER, ticket.uuid)).map((n) => n.type)).toEqual(['ticket.solved']);
    // Agents read both notes.
    const agentView = await api.request('GET', agentUrl, { as: 'agent' });
    expect(agentView.body).toContain(`Internal ${marker}`);
    expect(agentView.body).toContain(`Later ${marker}`);
  });

  it('sends an answer’s files to the customer, who sees and downloads them', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER });
    const reply = await api.request('POST', `${AGENT}/tickets/${ticket.uuid}/replies`, {
      as: 'agent',
      body: {
        body: 'Die Anleitung im Anhang.',
        attachments: [uploadOf('anleitung.txt', 'Schritt 1: Grüezi')],
      },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const customer = `/api/accounts/${MUSTER}/support/v1/tickets/${ticket.uuid}`;
    const detail = (await api.request('GET', customer, { as: 'owner' })).json().data;
    const answer = detail.messages.at(-1);
    expect(answer).toMatchObject({
      authorKind: 'AGENT',
      attachments: [{ fileName: 'anleitung.txt', contentType: 'text/plain', size: 18 }],
    });
    const download = await api.request('GET', `${customer}/attachments/${answer.attachments[0].uuid}`, {
      as: 'owner',
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('Schritt 1: Grüezi');
    const audit = await auditOf(api, MUSTER, ticket.uuid);
    expect(audit.at(-1)).toMatchObject({
      action: 'support.agent.reply',
      after: { attachments: [{ fileName: 'anleitung.txt' }] },
    });
  });

  it('keeps a note’s files for agents: the customer neither sees them nor downloads them', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER, body: 'Customer text' });
    const agentUrl = `${AGENT}/tickets/${ticket.uuid}`;
    const note = await api.request('POST', `${agentUrl}/notes`, {
      as: support.as,
      body: { body: 'Auszug aus dem Log', attachments: [uploadOf('intern.csv', 'a;b\n1;2\n')] },
    });
    expect(note.statusCode, note.body).toBe(201);
    const noted = note.json().data.messages.at(-1);
    expect(noted).toMatchObject({ internal: true, attachments: [{ fileName: 'intern.csv' }] });
    const fileUuid = noted.attachments[0].uuid;
    // Agents download it.
    const agentDownload = await api.request('GET', `${agentUrl}/attachments/${fileUuid}`, { as: 'agent' });
    expect(agentDownload.statusCode).toBe(200);
    expect(agentDownload.body).toBe('a;b\n1;2\n');

    const customer = `/api/accounts/${MUSTER}/support/v1/tickets/${ticket.uuid}`;
    const detail = await api.request('GET', customer, { as: 'owner' });
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toContain(fileUuid);
    expect(detail.body).not.toContain('intern.csv');
    const download = await api.request('GET', `${customer}/attachments/${fileUuid}`, { as: 'owner' });
    expect(download.statusCode).toBe(404);
    const log = await api.request('GET', `/api/accounts/${MUSTER}/logs/v1/entries?pageSize=100`, {
      as: 'owner',
    });
    expect(log.body).not.toContain('intern.csv');
  });

  it('refuses a sixth file, a file over 10 MB and a renamed program, storing nothing', async () => {
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER });
    const url = `${AGENT}/tickets/${ticket.uuid}`;
    const stored = async () => {
      const { rows } = await api.db.query<{ files: string; messages: string }>(
        `select (select count(*) from files where account_uuid = $1) as files,
                (select count(*) from support_messages where ticket_uuid = $2) as messages`,
        [MUSTER, ticket.uuid],
      );
      return rows[0];
    };
    const before = await stored();
    const six = Array.from({ length: 6 }, (_, i) => uploadOf(`f${i}.txt`, `file ${i}`));
    const cases = [
      ['replies', six, { attachments: 'attachmentsTooMany' }],
      [
        'notes',
        [uploadOf('ok.txt', 'fine'), uploadOf('big.txt', Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 'a'))],
        { 'attachments.1': 'attachmentTooLarge' },
      ],
      ['replies', [uploadOf('rechnung.pdf', EXE)], { 'attachments.0': 'attachmentType' }],
      ['notes', [uploadOf('liesmich.txt', EXE)], { 'attachments.0': 'attachmentType' }],
    ] as const;
    for (const [path, attachments, fields] of cases) {
      const res = await api.request('POST', `${url}/${path}`, {
        as: 'agent',
        body: { body: 'Mit Anhang', attachments },
      });
      expect(res.statusCode, `${path} ${res.body}`).toBe(422);
      expect(res.json().details.fields).toEqual(fields);
    }
    expect(await stored()).toEqual(before);
  });

  it('lets an agent take a free ticket and give it back; handing over is a manager’s', async () => {
    const agentUuid = DEMO_USERS.agent.id;
    const ticket = await insertTestTicket(api, { account: MUSTER, createdBy: OWNER });
    const url = `${AGENT}/tickets/${ticket.uuid}/assignee`;
    const assign = (as: As, assigneeUuid: string | null) =>
      api.request('PUT', url, { as, body: { assigneeUuid } });

    expect((await assign('agent', agentUuid)).json().data.ticket.assignee).toMatchObject({ uuid: agentUuid });
    expect((await assign('agent', null)).json().data.ticket.assignee).toBeNull();
    // Giving it to someone else, or taking it from someone else, needs a manager.
    expect((await assign('agent', manager.uuid)).statusCode).toBe(403);
    expect((await assign(manager.as, manager.uuid)).statusCode).toBe(200);
    const takeOver = await assign('agent', agentUuid);
    expect(takeOver.statusCode).toBe(403);
    expect(takeOver.json().message).toBe('Only a support manager can give a ticket to another agent');
    expect((await assign('agent', null)).statusCode).toBe(403);
    expect((await assign(manager.as, agentUuid)).json().data.ticket.assignee).toMatchObject({
      uuid: agentUuid,
    });
    // Only who can answer customers can own a ticket.
    for (const who of [support.uuid, OWNER, crypto.randomUUID()]) {
      const res = await assign(manager.as, who);
      expect(res.statusCode).toBe(422);
      expect(res.json().details.fields).toEqual({ assigneeUuid: 'is no support agent' });
    }
    const audit = await auditOf(api, MUSTER, ticket.uuid);
    expect(audit.map((a) => [a.actor_uuid, a.after])).toEqual([
      [agentUuid, { assignee: agentUuid }],
      [agentUuid, { assignee: null }],
      [manager.uuid, { assignee: manager.uuid }],
      [manager.uuid, { assignee: agentUuid }],
    ]);

    const agents = await api.request('GET', `${AGENT}/agents`, { as: 'agent' });
    const listed = agents.json().data.map((a: { uuid: string }) => a.uuid);
    expect(listed).toEqual(expect.arrayContaining([agentUuid, manager.uuid, admin.uuid]));
    expect(listed).not.toContain(support.uuid);
    expect(agents.json().data.find((a: { uuid: string }) => a.uuid === agentUuid).isSelf).toBe(true);
    expect((await api.request('GET', `${AGENT}/agents`, { as: 'owner' })).statusCode).toBe(403);
  });

  it('opens a customer account for support roles only while an active ticket has the consent on', async () => {
    const account = `/api/accounts/v1/accounts/${NEU}`;
    const logs = `/api/accounts/${NEU}/logs/v1/entries?pageSize=1`;
    await api.db.query(`update support_tickets set staff_access_consent = false where account_uuid = $1`, [
      NEU,
    ]);
    for (const as of ['agent', support.as, manager.as] as As[]) {
      expect((await api.request('GET', account, { as })).statusCode).toBe(404);
      expect((await api.request('GET', logs, { as })).statusCode).toBe(404);
    }
    const consentTicket = await allowStaff(api, NEU, NEU_OWNER);
    const opened = await api.request('GET', account, { as: 'agent' });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data.accountRole).toBe('SUPPORT');
    const [entry] = await api.audit(NEU);
    expect(entry).toMatchObject({
      action: 'support.access',
      actor_uuid: DEMO_USERS.agent.id,
      target: 'GET /api/accounts/v1/accounts/:id',
    });
    // The customer reads that access in their own log.
    const own = await api.request(
      'GET',
      `/api/accounts/${NEU}/logs/v1/entries?action=support.access&pageSize=5`,
      {
        as: 'newowner',
      },
    );
    expect(own.json().data[0]).toMatchObject({
      actor: { uuid: DEMO_USERS.agent.id },
      action: 'support.access',
    });

    // A consent taken back allows nothing any more (solving or closing the ticket ends it: the next test).
    await api.db.query(`update support_tickets set staff_access_consent = false where uuid = $1`, [
      consentTicket,
    ]);
    expect((await api.request('GET', account, { as: 'agent' })).statusCode).toBe(404);
    // The table refuses a solved or closed ticket whose consent is still on, whatever writes it.
    for (const status of ['SOLVED', 'CLOSED']) {
      await expect(
        api.db.query(`update support_tickets set status = $2, staff_access_consent = true where uuid = $1`, [
          consentTicket,
          status,
        ]),
      ).rejects.toThrow(/support_tickets_consent_while_open/);
    }
    // The platform administrator keeps access, logged like every staff access.
    const adminRead = await api.request('GET', account, { as: admin.as });
    expect(adminRead.statusCode).toBe(200);
    expect((await api.audit(NEU))[0]).toMatchObject({ action: 'support.access', actor_uuid: admin.uuid });
    // Ordinary users never get in this way.
    expect((await api.request('GET', account, { as: 'owner' })).statusCode).toBe(404);
  });

  it('ends the consent when staff solve or close a ticket; reopening it never brings the access back', async () => {
    const account = `/api/accounts/v1/accounts/${NEU}`;
    const opens = async () => (await api.request('GET', account, { as: 'agent' })).statusCode;
    const status = (ticket: string, status: string) =>
      api.request('PUT', `${AGENT}/tickets/${ticket}/status`, { as: 'agent', body: { status } });
    await api.db.query(`update support_tickets set staff_access_consent = false where account_uuid = $1`, [
      NEU,
    ]);

    // The attack: the customer allowed access on a ticket, the agent solves it and sets it open again.
    const solved = await allowStaff(api, NEU, NEU_OWNER);
    expect(await opens()).toBe(200);
    const solving = await status(solved, 'SOLVED');
    expect(await opens()).toBe(404);
    const reopened = await status(solved, 'OPEN');
    expect(await opens()).toBe(404);
    expect(solving.json().data.ticket.staffAccessConsent).toBe(false);
    expect(reopened.json().data.ticket).toMatchObject({ status: 'OPEN', staffAccessConsent: false });
    expect(await auditOf(api, NEU, solved)).toEqual([
      expect.objectContaining({
        action: 'support.consent.end',
        actor_uuid: DEMO_USERS.agent.id,
        before: { staffAccessConsent: true },
        after: { staffAccessConsent: false, reason: 'SOLVED' },
      }),
      expect.objectContaining({ action: 'support.agent.status', after: { status: 'SOLVED' } }),
      expect.objectContaining({ action: 'support.agent.status', after: { status: 'OPEN' } }),
    ]);

    // The same through an answer that solves the ticket, then one that asks the customer again.
    const answered = await allowStaff(api, NEU, NEU_OWNER);
    const reply = (status: string) =>
      api.request('POST', `${AGENT}/tickets/${answered}/replies`, {
        as: 'agent',
        body: { body: 'Erledigt.', status },
      });
    expect((await reply('SOLVED')).statusCode).toBe(201);
    expect((await reply('WAITING_FOR_CUSTOMER')).statusCode).toBe(201);
    expect(await opens()).toBe(404);
    expect((await auditOf(api, NEU, answered)).map((entry) => entry.action)).toEqual([
      'support.consent.end',
      'support.agent.reply',
      'support.agent.reply',
    ]);

    // Nor does the customer's own reopen bring it back: they allow access again if they want to.
    const customerReopens = await allowStaff(api, NEU, NEU_OWNER);
    await status(customerReopens, 'SOLVED');
    const url = `/api/accounts/${NEU}/support/v1/tickets/${customerReopens}`;
    const again = await api.request('POST', `${url}/reopen`, { as: 'newowner' });
    expect(again.json().data.ticket).toMatchObject({ status: 'OPEN', staffAccessConsent: false });
    expect(await opens()).toBe(404);

    // Closing ends it too, with its reason in the log.
    const closed = await allowStaff(api, NEU, NEU_OWNER);
    await status(closed, 'CLOSED');
    expect(await opens()).toBe(404);
    expect((await auditOf(api, NEU, closed))[0]).toMatchObject({
      action: 'support.consent.end',
      after: { staffAccessConsent: false, reason: 'CLOSED' },
    });
  });
});

import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi } from '../../test/api.ts';
import { allowStaff } from '../../test/support-tickets.ts';

const url = (id: string) => `/api/accounts/v1/accounts/${id}`;
const NEW = { name: 'Startup GmbH', country: 'DE', preferredLanguage: 'de' };

describeApi('accounts API', (api) => {
  it('creates an account whose creator is the OWNER', async () => {
    const res = await api.request('POST', '/api/accounts/v1/accounts', { as: 'fresh', body: NEW });
    expect(res.statusCode).toBe(201);
    const account = res.json().data;
    expect(account).toMatchObject({
      ...NEW,
      accountRole: 'OWNER',
      isOwner: true,
      invitationStatus: 'ACCEPTED',
      availableUntil: null,
      acceptedAgb: false,
      acceptedPrivacyPolicy: false,
    });
    expect(res.headers.location).toBe(url(account.uuid));
    const mine = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'fresh' })).json().data;
    expect(mine.map((a: { uuid: string }) => a.uuid)).toEqual([account.uuid]);
    expect(await api.audit(account.uuid)).toEqual([
      expect.objectContaining({ action: 'account.create', actor_uuid: DEMO_USERS.fresh.id }),
    ]);
  });

  it('refuses a name the user already has, case-insensitively (409 with a field error)', async () => {
    const res = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'owner',
      body: { ...NEW, name: '  muster ag ' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', details: { fields: { name: expect.any(String) } } });
    // Another user may use the same name.
    const other = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'admin',
      body: { ...NEW, name: 'Beispiel GmbH' },
    });
    expect(other.statusCode).toBe(201);
  });

  it('validates the body (422 with field errors)', async () => {
    const res = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'owner',
      body: { name: '', country: 'Schweiz', preferredLanguage: 'es' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().details.fields).sort()).toEqual(['country', 'name', 'preferredLanguage']);
    const blank = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'owner',
      body: { ...NEW, name: '   ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().details.fields).toHaveProperty('name');
  });

  it('accepts only country codes the form offers (422 for a well-formed unknown one)', async () => {
    const created = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'owner',
      body: { ...NEW, country: 'ZZ' },
    });
    expect(created.statusCode).toBe(422);
    expect(created.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { country: 'is not a known country code' } },
    });
    const updated = await api.request('PATCH', url(DEMO_ACCOUNTS.muster), {
      as: 'owner',
      body: { country: 'QQ' },
    });
    expect(updated.statusCode).toBe(422);
    expect(updated.json().details.fields).toHaveProperty('country');
  });

  it('returns the first result for a retried Idempotency-Key', async () => {
    const send = (body = { ...NEW, name: 'Idem AG' }) =>
      api.request('POST', '/api/accounts/v1/accounts', {
        as: 'coach',
        body,
        headers: { 'idempotency-key': 'create-idem-ag-1' },
      });
    const first = await send();
    const retry = await send();
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.uuid).toBe(first.json().data.uuid);
    const mine = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'coach' })).json().data;
    expect(mine.filter((a: { name: string }) => a.name === 'Idem AG')).toHaveLength(1);
    const reused = await send({ ...NEW, name: 'Other AG' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('creates one account for concurrent requests with the same Idempotency-Key', async () => {
    const send = () =>
      api.request('POST', '/api/accounts/v1/accounts', {
        as: 'unverified',
        body: { ...NEW, name: 'Race AG' },
        headers: { 'idempotency-key': 'race-1' },
      });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.filter((res) => res.statusCode === 201).length).toBeGreaterThanOrEqual(1);
    for (const res of answers) expect([201, 409]).toContain(res.statusCode);
    const mine = (await api.request('GET', '/api/users/v1/me/accounts', { as: 'unverified' })).json().data;
    expect(mine.filter((a: { name: string }) => a.name === 'Race AG')).toHaveLength(1);
  });

  it('shows an account to members, with their own role', async () => {
    const res = await api.request('GET', url(DEMO_ACCOUNTS.muster), { as: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      uuid: DEMO_ACCOUNTS.muster,
      name: 'Muster AG',
      accountRole: 'ADMIN',
    });
  });

  it('answers 404 to non-members, pending invitees and unknown ids alike, 400 to malformed ids', async () => {
    const outsider = await api.request('GET', url(DEMO_ACCOUNTS.neu), { as: 'owner' });
    expect(outsider.statusCode).toBe(404);
    const pending = await api.request('GET', url(DEMO_ACCOUNTS.beispiel), { as: 'employee' });
    expect(pending.statusCode).toBe(404);
    const unknown = await api.request('GET', url('6f1c2b1e-0002-4000-8000-0000000000ff'), { as: 'owner' });
    expect(unknown.statusCode).toBe(404);
    // An id that cannot be one is a malformed request, not an unknown account.
    const invalid = await api.request('GET', url('not-a-uuid'), { as: 'owner' });
    expect(invalid.statusCode).toBe(400);
    expect(outsider.json()).toEqual(unknown.json());
    const patch = await api.request('PATCH', url(DEMO_ACCOUNTS.neu), { as: 'owner', body: { name: 'Mine' } });
    expect(patch.statusCode).toBe(404);
    const del = await api.request('DELETE', url(DEMO_ACCOUNTS.neu), { as: 'owner' });
    expect(del.statusCode).toBe(404);
    const migrate = await api.request('POST', `${url(DEMO_ACCOUNTS.neu)}/migration/begin`, { as: 'owner' });
    expect(migrate.statusCode).toBe(404);
  });

  it('lets ADMIN level change the profile and refuses EMPLOYEE (403)', async () => {
    const denied = await api.request('PATCH', url(DEMO_ACCOUNTS.muster), {
      as: 'employee',
      body: { country: 'LI' },
    });
    expect(denied.statusCode).toBe(403);
    const res = await api.request('PATCH', url(DEMO_ACCOUNTS.muster), {
      as: 'admin',
      body: { country: 'LI', preferredLanguage: 'it' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ country: 'LI', preferredLanguage: 'it', accountRole: 'ADMIN' });
    const [entry] = await api.audit(DEMO_ACCOUNTS.muster);
    expect(entry).toMatchObject({
      action: 'account.update',
      actor_uuid: DEMO_USERS.admin.id,
      client_address: '127.0.0.1',
      user_agent: 'lightMyRequest',
    });
    const { rows } = await api.db.query<{ before: unknown; after: unknown }>(
      // The newest change: the demo history holds older ones.
      `select before, after from audit_log where account_uuid = $1 and action = 'account.update' order by id desc limit 1`,
      [DEMO_ACCOUNTS.muster],
    );
    expect(rows).toEqual([
      {
        before: { country: 'CH', preferredLanguage: 'de' },
        after: { country: 'LI', preferredLanguage: 'it' },
      },
    ]);
  });

  it('refuses renaming to a name the user already has (409)', async () => {
    const res = await api.request('PATCH', url(DEMO_ACCOUNTS.muster), {
      as: 'owner',
      body: { name: 'BEISPIEL GMBH' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().details.fields).toHaveProperty('name');
  });

  it('lets only the exact OWNER accept the terms, and records who accepted which version', async () => {
    for (const login of ['admin', 'coach'] as const) {
      const denied = await api.request('PATCH', url(DEMO_ACCOUNTS.muster), {
        as: login,
        body: { acceptedAgb: true },
      });
      expect(denied.statusCode).toBe(403);
    }
    const res = await api.request('PATCH', url(DEMO_ACCOUNTS.neu), {
      as: 'newowner',
      body: { acceptedAgb: true, acceptedPrivacyPolicy: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ acceptedAgb: true, acceptedPrivacyPolicy: true });
    const { rows } = await api.db.query<{ kind: string; version: string; accepted_by: string }>(
      'select kind, version, accepted_by from terms_acceptances where account_uuid = $1 order by kind',
      [DEMO_ACCOUNTS.neu],
    );
    expect(rows).toEqual([
      { kind: 'agb', version: '2026-01', accepted_by: DEMO_USERS.newowner.id },
      { kind: 'privacy', version: '2026-01', accepted_by: DEMO_USERS.newowner.id },
    ]);
    const actions = (await api.audit(DEMO_ACCOUNTS.neu)).map((e) => e.action);
    expect(actions.filter((a) => a === 'account.terms.accept')).toHaveLength(2);
    const withdraw = await api.request('PATCH', url(DEMO_ACCOUNTS.neu), {
      as: 'newowner',
      body: { acceptedAgb: false },
    });
    expect(withdraw.statusCode).toBe(422);
  });

  it('schedules the deletion in 30 days for the owner only, and lets the owner cancel it', async () => {
    const created = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'fresh',
      body: { ...NEW, name: 'To Delete AG' },
    });
    const id = created.json().data.uuid;
    const denied = await api.request('DELETE', url(DEMO_ACCOUNTS.muster), { as: 'admin' });
    expect(denied.statusCode).toBe(403);

    const res = await api.request('DELETE', url(id), { as: 'fresh' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toMatch(/deleted/);
    const days = (Date.parse(body.data.availableUntil) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    // Still usable while scheduled.
    expect((await api.request('GET', url(id), { as: 'fresh' })).json().data.availableUntil).toBe(
      body.data.availableUntil,
    );

    const cancelled = await api.request('PATCH', url(id), { as: 'fresh', body: { availableUntil: null } });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.availableUntil).toBeNull();
    expect((await api.audit(id)).map((e) => e.action).slice(0, 2)).toEqual([
      'account.deletion.cancel',
      'account.deletion.schedule',
    ]);
  });

  it('refuses a cancel by non-owners (403)', async () => {
    const res = await api.request('PATCH', url(DEMO_ACCOUNTS.beispiel), {
      as: 'coach',
      body: { availableUntil: null },
    });
    expect(res.statusCode).toBe(403);
    const still = await api.request('GET', url(DEMO_ACCOUNTS.beispiel), { as: 'inhaber' });
    expect(still.json().data.availableUntil).not.toBeNull();
  });

  it('begins a migration for the owner, once at a time', async () => {
    const denied = await api.request('POST', `${url(DEMO_ACCOUNTS.muster)}/migration/begin`, { as: 'admin' });
    expect(denied.statusCode).toBe(403);
    const res = await api.request('POST', `${url(DEMO_ACCOUNTS.muster)}/migration/begin`, { as: 'owner' });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ accountUuid: DEMO_ACCOUNTS.muster, state: 'REQUESTED' });
    const again = await api.request('POST', `${url(DEMO_ACCOUNTS.muster)}/migration/begin`, { as: 'owner' });
    expect(again.statusCode).toBe(409);
    expect((await api.audit(DEMO_ACCOUNTS.muster))[0]).toMatchObject({ action: 'account.migration.begin' });
  });

  it('lets staff open an account as SUPPORT while the customer allows it on a ticket, auditing every access', async () => {
    expect((await api.request('GET', url(DEMO_ACCOUNTS.neu), { as: 'agent' })).statusCode).toBe(404);
    await allowStaff(api, DEMO_ACCOUNTS.neu, DEMO_USERS.newowner.id);
    const res = await api.request('GET', url(DEMO_ACCOUNTS.neu), { as: 'agent' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      uuid: DEMO_ACCOUNTS.neu,
      accountRole: 'SUPPORT',
      isOwner: false,
      invitationStatus: 'ACCEPTED',
    });
    expect((await api.audit(DEMO_ACCOUNTS.neu))[0]).toMatchObject({
      action: 'support.access',
      actor_uuid: DEMO_USERS.agent.id,
    });
    // Staff may not act as the owner.
    const terms = await api.request('PATCH', url(DEMO_ACCOUNTS.neu), {
      as: 'agent',
      body: { acceptedAgb: true },
    });
    expect(terms.statusCode).toBe(403);
    const del = await api.request('DELETE', url(DEMO_ACCOUNTS.neu), { as: 'agent' });
    expect(del.statusCode).toBe(403);
    // Staff do not see accounts they are not members of in their own list.
    const mine = await api.request('GET', '/api/users/v1/me/accounts', { as: 'agent' });
    expect(mine.json().data).toEqual([]);
  });
});

describeApi('accounts past their deletion date', (api) => {
  it('are gone for members and staff, and the hourly job deletes them keeping invoices without the name', async () => {
    const created = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'fresh',
      body: { ...NEW, name: 'Expired AG' },
    });
    const id = created.json().data.uuid;
    const muster = DEMO_ACCOUNTS.muster;
    await api.db.query(
      `update accounts set available_until = now() - interval '1 minute' where uuid = any ($1::uuid[])`,
      [[id, muster]],
    );
    expect((await api.request('GET', url(id), { as: 'fresh' })).statusCode).toBe(404);
    expect((await api.request('GET', url(id), { as: 'agent' })).statusCode).toBe(404);
    expect((await api.request('GET', '/api/users/v1/me/accounts', { as: 'fresh' })).json().data).toEqual([]);

    const invoicesOf = async (account: string) =>
      (
        await api.db.query<{ uuid: string; total_minor: string; billed_to: Record<string, unknown> }>(
          `select uuid, total_minor::text, billed_to from invoices where account_uuid = $1 order by uuid`,
          [account],
        )
      ).rows;
    const count = async (sql: string, account: string) =>
      Number(
        (await api.db.query<{ n: string }>(`select count(*)::text as n from ${sql}`, [account])).rows[0]!.n,
      );
    const musterInvoices = await invoicesOf(muster);
    expect(musterInvoices.length).toBeGreaterThan(0);
    expect(musterInvoices[0]!.billed_to.name).toBe('Muster AG');
    const payments = await count('invoice_payments where account_uuid = $1', muster);
    expect(payments).toBeGreaterThan(0);
    const beispielInvoices = await invoicesOf(DEMO_ACCOUNTS.beispiel);
    const musterLog = await count('audit_log where account_uuid = $1', muster);

    // The hourly job is a recurring job: its one pending occurrence falls due now. The occurrence the start ran
    // may still be under way on a busy machine; the next one is pending once it is done.
    await api.app.jobs.drain();
    const due = await api.db.query(
      `update jobs set run_at = now() where kind = 'accounts.purge-deleted' and state = 'pending'`,
    );
    expect(due.rowCount).toBe(1);
    await api.app.jobs.drain();

    for (const account of [id, muster]) {
      expect(await count('accounts where uuid = $1', account)).toBe(0);
      // Everything else of the account goes with it.
      for (const table of [
        'account_members',
        'company_profiles',
        'files',
        'subscriptions',
        'billing_details',
      ]) {
        expect(await count(`${table} where account_uuid = $1`, account), table).toBe(0);
      }
    }
    // The invoices and payments stay, every figure as it was, without the account's name and address.
    const kept = await invoicesOf(muster);
    expect(kept.map(({ uuid, total_minor }) => ({ uuid, total_minor }))).toEqual(
      musterInvoices.map(({ uuid, total_minor }) => ({ uuid, total_minor })),
    );
    for (const invoice of kept) {
      expect(invoice.billed_to).toMatchObject({ name: '', address: null, vatNumber: null, recipients: [] });
    }
    expect(JSON.stringify(kept)).not.toMatch(/Muster|Bahnhofstrasse|buchhaltung@/);
    expect(await count('invoice_payments where account_uuid = $1', muster)).toBe(payments);
    // The provider's log (entries of no account) records each deletion; the account's own log stays its evidence.
    const { rows: provider } = await api.db.query<{ target: string; after: unknown }>(
      `select target, after from audit_log where account_uuid is null and action = 'account.delete' order by target`,
    );
    expect(provider).toEqual(
      [
        { target: `account:${id}`, after: { invoicesKept: 0 } },
        { target: `account:${muster}`, after: { invoicesKept: musterInvoices.length } },
      ].sort((a, b) => a.target.localeCompare(b.target)),
    );
    expect(await count('audit_log where account_uuid = $1', muster)).toBe(musterLog);
    expect((await api.audit(id)).map((e) => e.action)).toEqual(['account.create']);

    // Beispiel GmbH (deletion in 20 days) is untouched.
    const beispiel = await api.request('GET', url(DEMO_ACCOUNTS.beispiel), { as: 'inhaber' });
    expect(beispiel.statusCode).toBe(200);
    expect(await invoicesOf(DEMO_ACCOUNTS.beispiel)).toEqual(beispielInvoices);
  });
});

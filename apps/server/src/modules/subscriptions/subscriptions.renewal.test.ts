import { expect, it } from 'vitest';
import { DEMO_USERS } from '../../demo/users.ts';
import { todayIn } from '../../invoicing/money.ts';
import { describeApi, type TestApi } from '../../test/api.ts';
import { dueAccounts, invoiceSequences, runRenewals } from '../../test/subscriptions.ts';

async function expectGapless(api: TestApi): Promise<void> {
  for (const sequences of await invoiceSequences(api))
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
}

async function periodInvoices(api: TestApi, accounts: string[]): Promise<Map<string, number>> {
  const { rows } = await api.db.query<{ account_uuid: string; n: number }>(
    `select account_uuid, count(*)::int as n from invoices
      where account_uuid = any($1::uuid[]) and reason = 'PERIOD' group by account_uuid`,
    [accounts],
  );
  return new Map(rows.map((row) => [row.account_uuid, row.n]));
}

async function advanced(api: TestApi, accounts: string[]): Promise<number> {
  const today = todayIn(api.config.billing.timeZone);
  const { rows } = await api.db.query<{ n: number }>(
    `select count(*)::int as n from subscriptions where account_uuid = any($1::uuid[]) and current_period_start = $2`,
    [accounts, today],
  );
  return rows[0]!.n;
}

describeApi('subscription renewals', (api) => {
  it('a failure while issuing leaves the whole batch as it was; the next run invoices each once', async () => {
    const accounts = await dueAccounts(api, 5, 'Absturz');
    // The fourth account's invoice cannot be written (as if the process died there).
    await api.db.query(
      `create function refuse_invoice() returns trigger language plpgsql as $$
       begin
         if new.account_uuid = '${accounts[3]}' then raise exception 'disk full'; end if;
         return new;
       end $$`,
    );
    await api.db.query(
      'create trigger refuse_invoice before insert on invoices for each row execute function refuse_invoice()',
    );
    await runRenewals(api);
    expect((await periodInvoices(api, accounts)).size).toBe(0);
    expect(await advanced(api, accounts)).toBe(0);

    await api.db.query('drop trigger refuse_invoice on invoices');
    await api.db.query('drop function refuse_invoice()');
    // The failed occurrence is retried (now, in the test); a second run issues nothing more.
    await runRenewals(api);
    await runRenewals(api);
    const issued = await periodInvoices(api, accounts);
    expect(accounts.map((account) => issued.get(account))).toEqual([1, 1, 1, 1, 1]);
    expect(await advanced(api, accounts)).toBe(5);
    await expectGapless(api);
  });

  it("tells each renewed account's admins about its invoice, by notification and mail", async () => {
    const accounts: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await api.request('POST', '/api/accounts/v1/accounts', {
        as: 'admin',
        body: { name: `Erneuert ${i} AG`, country: 'CH', preferredLanguage: 'de' },
      });
      accounts.push(res.json().data.uuid);
    }
    const today = todayIn(api.config.billing.timeZone);
    await api.db.query(
      `update subscriptions set current_period_start = $2::date - 14, current_period_end = $2
        where account_uuid = any($1::uuid[])`,
      [accounts, today],
    );
    // The admin wants these by mail (they are not mailed by default: the billing area mails the invoice itself).
    await api.db.query(
      `insert into notification_preferences (user_uuid, type, email) values ($1, 'invoice.issued', true)
       on conflict (user_uuid, type) do update set email = true`,
      [DEMO_USERS.admin.id],
    );
    const before = (await api.mailsTo(DEMO_USERS.admin.email)).length;
    await runRenewals(api);
    const { rows } = await api.db.query<{ account_uuid: string; number: string; invoice: string }>(
      `select n.account_uuid, n.params->>'number' as number, i.number as invoice
         from notifications n join invoices i on i.uuid = (n.params->>'invoiceUuid')::uuid
        where n.type = 'invoice.issued' and n.user_uuid = $2 and n.account_uuid = any($1::uuid[])`,
      [accounts, DEMO_USERS.admin.id],
    );
    expect(rows.map((row) => row.account_uuid).sort()).toEqual([...accounts].sort());
    expect(rows.every((row) => row.number === row.invoice)).toBe(true);
    // The notification's mail, and the invoice itself: the admin created the accounts, so it is billed to them.
    const mails = (await api.mailsTo(DEMO_USERS.admin.email)).slice(before);
    expect(mails.filter((mail) => mail.subject.includes(': Neue Rechnung '))).toHaveLength(3);
    expect(mails.filter((mail) => /^Rechnung \d{4}-\d{6} von /.test(mail.subject))).toHaveLength(3);
    await api.db.query('delete from notification_preferences where user_uuid = $1', [DEMO_USERS.admin.id]);
  });

  it.skipIf(api.backend !== 'postgres')(
    'two instances renewing at once invoice each due subscription once, numbers without gaps',
    async () => {
      const accounts = await dueAccounts(api, 500, 'Parallel');
      const second = await api.secondInstance();
      // Several occurrences queued on both instances, so both work at the same time.
      for (let i = 0; i < 3; i += 1) {
        await api.app.jobs.enqueue('subscriptions.renew', {});
        await second.jobs.enqueue('subscriptions.renew', {});
      }
      await api.db.query(
        `update jobs set run_at = now() where kind = 'subscriptions.renew' and state = 'pending'`,
      );
      await Promise.all([api.app.jobs.drain(), second.jobs.drain()]);
      const issued = await periodInvoices(api, accounts);
      expect(issued.size).toBe(500);
      expect([...issued.values()].every((n) => n === 1)).toBe(true);
      expect(await advanced(api, accounts)).toBe(500);
      await expectGapless(api);
      const { rows } = await api.db.query(
        `select state from jobs where kind = 'subscriptions.renew' and state <> 'pending'`,
      );
      expect(rows).toEqual([]);
    },
    60_000,
  );
});

import type { SubscriptionAction } from '@portal/contract';
import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { addDays, periodEnd, todayIn } from '../../invoicing/money.ts';
import { describeApi, type TestApi } from '../../test/api.ts';
import { invoiceSequences, runRenewals, storeSubscription } from '../../test/subscriptions.ts';

const MUSTER: string = DEMO_ACCOUNTS.muster;
const base = (account: string) => `/api/accounts/${account}/subscriptions/v1`;

async function invoiceCount(api: TestApi, account: string): Promise<number> {
  const { rows } = await api.db.query<{ n: number }>(
    'select count(*)::int as n from invoices where account_uuid = $1',
    [account],
  );
  return rows[0]!.n;
}

describeApi('subscriptions API', (api) => {
  const today = () => todayIn(api.config.billing.timeZone);
  const preview = (action: SubscriptionAction, account = MUSTER) =>
    api.request('POST', `${base(account)}/subscription/preview`, { as: 'admin', body: action });
  const confirm = (action: SubscriptionAction, expectedChargeMinor: number, account = MUSTER) =>
    api.request('POST', `${base(account)}/subscription/confirm`, {
      as: 'admin',
      body: { action, expectedChargeMinor },
    });
  const get = async (account = MUSTER) =>
    (await api.request('GET', `${base(account)}/subscription`, { as: 'admin' })).json().data;
  let created = 0;
  /** A new account of the admin's (its trial started), so each case starts from nothing. */
  const freshAccount = async (): Promise<string> => {
    created += 1;
    const res = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'admin',
      body: { name: `Abo ${created} AG`, country: 'CH', preferredLanguage: 'de' },
    });
    return res.json().data.uuid as string;
  };
  /** ACTIVE Standard monthly, in its 11th day. */
  const midPeriod = async (account: string, seats = 10) => {
    const start = addDays(today(), -10);
    await storeSubscription(api, account, {
      plan: 'STANDARD',
      period: 'MONTHLY',
      seats,
      status: 'ACTIVE',
      start,
      end: periodEnd(start, 'MONTHLY', Number(start.slice(8, 10))),
    });
  };

  it('lists the plans in rank order', async () => {
    const res = await api.request('GET', `${base(MUSTER)}/plans`, { as: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.plans.map((plan: { code: string }) => plan.code)).toEqual([
      'FREE',
      'STANDARD',
      'PROFESSIONAL',
    ]);
  });

  it('starts a trial for an account that has no subscription yet (Swiss account: CHF)', async () => {
    await api.db.query('delete from subscriptions where account_uuid = $1', [MUSTER]);
    const sub = await get();
    expect(sub).toMatchObject({
      planCode: 'STANDARD',
      billingPeriod: 'MONTHLY',
      currency: 'CHF',
      status: 'TRIALING',
      trialEndsOn: addDays(today(), 14),
      currentPeriodStart: today(),
      currentPeriodEnd: addDays(today(), 14),
      cancelAtPeriodEnd: false,
      pendingChange: null,
    });
    expect(sub.seats).toBe(Math.max(5, sub.seatsInUse));
    // The first invoice, on the trial's last day: a month of Standard with 8.1 % VAT, rounded to 5 Rappen.
    expect(sub.upcoming.issuedOn).toBe(addDays(today(), 14));
    expect(sub.upcoming.lines[0]).toMatchObject({
      kind: 'PLAN',
      netMinor: 4900,
      vatRateBp: 810,
      vatMinor: 397,
    });
    expect(sub.upcoming.totals.totalMinor % 5).toBe(0);
  });

  it('gives a new account its trial in euros outside Switzerland', async () => {
    const created = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'fresh',
      body: { name: 'Abo GmbH', country: 'DE', preferredLanguage: 'de' },
    });
    expect(created.statusCode).toBe(201);
    const uuid = created.json().data.uuid as string;
    const { rows } = await api.db.query(
      'select currency, status, plan_code, seats from subscriptions where account_uuid = $1',
      [uuid],
    );
    expect(rows[0]).toEqual({ currency: 'EUR', status: 'TRIALING', plan_code: 'STANDARD', seats: 5 });
  });

  const TO_PRO: SubscriptionAction = {
    action: 'CHANGE',
    planCode: 'PROFESSIONAL',
    billingPeriod: 'MONTHLY',
    seats: 15,
  };
  const change = (planCode: string, seats: number, billingPeriod: 'MONTHLY' | 'YEARLY' = 'MONTHLY') =>
    ({ action: 'CHANGE', planCode, billingPeriod, seats }) as const;
  /** Moves the account's period to end today, so the scheduler renews it. */
  const endsToday = (account: string) =>
    api.db.query(
      `update subscriptions set current_period_start = least(current_period_start, $2::date - 14),
         current_period_end = $2 where account_uuid = $1`,
      [account, today()],
    );

  it('previews an upgrade without changing anything, and charges exactly the previewed total', async () => {
    const account = await freshAccount();
    await midPeriod(account);
    const before = await get(account);
    const res = await preview(TO_PRO, account);
    expect(res.statusCode).toBe(200);
    const shown = res.json().data;
    expect(shown.effective).toBe('NOW');
    expect(shown.charge.lines.map((line: { kind: string }) => line.kind)).toEqual([
      'PLAN_CREDIT',
      'SEATS_CREDIT',
      'PLAN',
    ]);
    expect(shown.charge.lines.every((line: { periodStart: string }) => line.periodStart === today())).toBe(
      true,
    );
    expect(shown.charge.totals.totalMinor).toBeGreaterThan(0);
    expect(shown.subscription.planCode).toBe('PROFESSIONAL');
    expect(shown.recurring).toMatchObject({ from: before.currentPeriodEnd });
    expect(await get(account)).toEqual(before);
    expect(await invoiceCount(api, account)).toBe(0);

    const done = await confirm(TO_PRO, shown.charge.totals.totalMinor, account);
    expect(done.statusCode).toBe(200);
    const result = done.json().data;
    expect(result.subscription).toMatchObject({ planCode: 'PROFESSIONAL', seats: 15, pendingChange: null });
    const { rows } = await api.db.query<{ total_minor: string; reason: string; lines: unknown }>(
      'select total_minor, reason, lines from invoices where uuid = $1',
      [result.chargeInvoiceUuid],
    );
    expect(Number(rows[0]!.total_minor)).toBe(shown.charge.totals.totalMinor);
    expect(rows[0]).toMatchObject({ reason: 'CHANGE', lines: shown.charge.lines });
    expect((await api.audit(account))[0]).toMatchObject({
      action: 'subscription.change',
      actor_uuid: DEMO_USERS.admin.id,
      target: `subscription:${account}`,
    });

    // Then a downgrade: it waits for the period end and charges nothing now.
    const down = change('STANDARD', 8);
    const downPreview = (await preview(down, account)).json().data;
    expect(downPreview).toMatchObject({
      effective: 'PERIOD_END',
      effectiveOn: before.currentPeriodEnd,
      charge: null,
    });
    const downDone = await confirm(down, 0, account);
    expect(downDone.statusCode).toBe(200);
    expect(downDone.json().data).toMatchObject({
      chargeInvoiceUuid: null,
      subscription: {
        planCode: 'PROFESSIONAL',
        pendingChange: { planCode: 'STANDARD', seats: 8, effectiveOn: before.currentPeriodEnd },
      },
    });
    // The next invoice is the downgraded one.
    expect(downDone.json().data.subscription.upcoming.lines[0]).toMatchObject({
      planCode: 'STANDARD',
      netMinor: 4900,
    });

    // A later upgrade replaces the waiting downgrade.
    const more = change('PROFESSIONAL', 20);
    const morePreview = (await preview(more, account)).json().data;
    const moreDone = await confirm(more, morePreview.charge.totals.totalMinor, account);
    expect(moreDone.json().data.subscription).toMatchObject({ seats: 20, pendingChange: null });
    expect(await invoiceCount(api, account)).toBe(2);
  });

  it('refuses an outdated preview with 409 and changes nothing', async () => {
    const account = await freshAccount();
    await midPeriod(account);
    const before = await get(account);
    const shown = (await preview(TO_PRO, account)).json().data;
    const res = await confirm(TO_PRO, shown.charge.totals.totalMinor - 5, account);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('PREVIEW_OUTDATED');
    expect(await get(account)).toEqual(before);
    expect(await invoiceCount(api, account)).toBe(0);
    expect((await api.audit(account)).map((row) => row.action)).not.toContain('subscription.change');
  });

  it('moves monthly to yearly at once: a yearly period starts today, the unused month credited', async () => {
    const account = await freshAccount();
    await midPeriod(account, 5);
    const action = change('STANDARD', 5, 'YEARLY');
    const shown = (await preview(action, account)).json().data;
    expect(shown.charge.lines).toEqual([
      expect.objectContaining({ kind: 'PLAN_CREDIT', billingPeriod: 'MONTHLY', prorated: true }),
      expect.objectContaining({ kind: 'PLAN', billingPeriod: 'YEARLY', netMinor: 49000, prorated: false }),
    ]);
    const done = (await confirm(action, shown.charge.totals.totalMinor, account)).json().data;
    expect(done.subscription).toMatchObject({
      billingPeriod: 'YEARLY',
      currentPeriodStart: today(),
      currentPeriodEnd: periodEnd(today(), 'YEARLY', Number(today().slice(8, 10))),
    });
    // Back to monthly waits for the end of the year.
    const back = (await preview(change('STANDARD', 5, 'MONTHLY'), account)).json().data;
    expect(back).toMatchObject({ effective: 'PERIOD_END', charge: null });
  });

  it('keeps seats between those in use and the plan limit (422 on seats)', async () => {
    const account = await freshAccount();
    await midPeriod(account, 10);
    // The admin and three open invitations: four seats in use, one more than the free plan has.
    await api.request('POST', `/api/accounts/${account}/members/v1/invitations`, {
      as: 'admin',
      body: { emails: ['a.seat@example.org', 'b.seat@example.org', 'c.seat@example.org'], role: 'EMPLOYEE' },
    });
    expect((await get(account)).seatsInUse).toBe(4);
    for (const [res, problem] of [
      [await preview(change('FREE', 3), account), /at least 4/],
      [await preview(change('STANDARD', 51), account), /at most 50/],
      [await preview(change('FREE', 4), account), /no extra seats/],
    ] as const) {
      expect(res.statusCode).toBe(422);
      expect(res.json().details.fields.seats).toMatch(problem);
    }
    const unknown = await preview(change('GOLD', 10), account);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details.fields).toHaveProperty('planCode');
    const same = await preview(change('STANDARD', 10), account);
    expect(same.statusCode).toBe(409);
    expect(same.json().code).toBe('NO_CHANGE');
  });

  it('counts accepted members and open invitations as seats in use', async () => {
    const account = await freshAccount();
    expect((await get(account)).seatsInUse).toBe(1);
    const invited = await api.request('POST', `/api/accounts/${account}/members/v1/invitations`, {
      as: 'admin',
      body: { emails: ['seat.one@example.org', 'seat.two@example.org'], role: 'EMPLOYEE' },
    });
    expect(invited.statusCode).toBeLessThan(300);
    expect((await get(account)).seatsInUse).toBe(3);
    await api.db.query(
      `update invitations set expires_at = now() - interval '1 day' where account_uuid = $1`,
      [account],
    );
    expect((await get(account)).seatsInUse).toBe(1);
  });

  it('cancels at the period end with a reason and resumes before it', async () => {
    const account = await freshAccount();
    await midPeriod(account);
    const cancel: SubscriptionAction = {
      action: 'CANCEL',
      reason: 'TOO_EXPENSIVE',
      comment: 'Zu teuer für uns',
    };
    const shown = (await preview(cancel, account)).json().data;
    expect(shown).toMatchObject({ effective: 'PERIOD_END', charge: null, recurring: null });
    const done = (await confirm(cancel, 0, account)).json().data;
    expect(done.subscription).toMatchObject({
      cancelAtPeriodEnd: true,
      cancelReason: 'TOO_EXPENSIVE',
      upcoming: null,
      status: 'ACTIVE',
    });
    expect((await confirm(cancel, 0, account)).json().code).toBe('ALREADY_CANCELLED');
    const resumed = (await confirm({ action: 'RESUME' }, 0, account)).json().data;
    expect(resumed.subscription).toMatchObject({ cancelAtPeriodEnd: false, cancelReason: null });
    expect(resumed.subscription.upcoming).not.toBeNull();
    expect((await confirm({ action: 'RESUME' }, 0, account)).json().code).toBe('NOT_CANCELLED');
    expect((await api.audit(account)).slice(0, 2).map((row) => row.action)).toEqual([
      'subscription.resume',
      'subscription.cancel',
    ]);
  });

  it('shows PAST_DUE while an invoice is overdue, without storing it', async () => {
    const account = await freshAccount();
    await midPeriod(account);
    const shown = (await preview(TO_PRO, account)).json().data;
    const { chargeInvoiceUuid } = (await confirm(TO_PRO, shown.charge.totals.totalMinor, account)).json()
      .data;
    expect((await get(account)).status).toBe('ACTIVE');
    await api.db.query(`update invoices set status = 'OVERDUE' where uuid = $1`, [chargeInvoiceUuid]);
    expect((await get(account)).status).toBe('PAST_DUE');
    const { rows } = await api.db.query('select status from subscriptions where account_uuid = $1', [
      account,
    ]);
    expect(rows[0]).toEqual({ status: 'ACTIVE' });
  });

  it('renews due subscriptions once, however often the scheduler runs', async () => {
    const account = await freshAccount();
    await storeSubscription(api, account, {
      plan: 'STANDARD',
      period: 'MONTHLY',
      seats: 7,
      status: 'ACTIVE',
      start: addDays(today(), -31),
      end: today(),
    });
    const expected = (await get(account)).upcoming;
    await runRenewals(api);
    await runRenewals(api);
    const { rows } = await api.db.query<{ source_key: string; total_minor: string; reason: string }>(
      'select source_key, total_minor, reason from invoices where account_uuid = $1',
      [account],
    );
    expect(rows.map((row) => ({ ...row, total_minor: Number(row.total_minor) }))).toEqual([
      { source_key: `period:${today()}`, total_minor: expected.totals.totalMinor, reason: 'PERIOD' },
    ]);
    const sub = await get(account);
    expect(sub).toMatchObject({ status: 'ACTIVE', currentPeriodStart: today() });
    expect(sub.currentPeriodEnd > today()).toBe(true);
  });

  it('ends a trial into ACTIVE with its first invoice', async () => {
    const account = await freshAccount();
    await endsToday(account);
    await runRenewals(api);
    expect(await get(account)).toMatchObject({ status: 'ACTIVE', currentPeriodStart: today() });
    expect(await invoiceCount(api, account)).toBe(1);
  });

  it('applies a waiting downgrade at the period end', async () => {
    const account = await freshAccount();
    await midPeriod(account, 10);
    await confirm(change('STANDARD', 6), 0, account);
    await endsToday(account);
    await runRenewals(api);
    expect(await get(account)).toMatchObject({ seats: 6, pendingChange: null });
    const { rows } = await api.db.query<{ net_minor: string }>(
      'select net_minor from invoices where account_uuid = $1',
      [account],
    );
    expect(rows.map((row) => Number(row.net_minor))).toEqual([4900 + 900]);
  });

  // Issue 23 item 10: "Zu Standard wechseln" with Professional's 22 seats recurred at more than staying, unsaid.
  it('says in the preview when a change that is no upgrade costs more per year than staying', async () => {
    const account = await freshAccount();
    const start = addDays(today(), -10);
    await storeSubscription(api, account, {
      plan: 'PROFESSIONAL',
      period: 'YEARLY',
      seats: 22,
      status: 'ACTIVE',
      start,
      end: periodEnd(start, 'YEARLY', Number(start.slice(8, 10))),
    });
    const professional = 129000 + 7 * 7000;
    const dearer = (await preview(change('STANDARD', 22, 'YEARLY'), account)).json().data;
    expect(dearer.costsMoreThanStaying).toEqual({
      currentYearlyNetMinor: professional,
      newYearlyNetMinor: 49000 + 17 * 9000,
    });
    // The fewest seats the members need (the page proposes them) cost less: nothing to say.
    expect(
      (await preview(change('STANDARD', 5, 'YEARLY'), account)).json().data.costsMoreThanStaying,
    ).toBeNull();
    // Monthly on the same plan costs twelve months instead of ten.
    expect(
      (await preview(change('PROFESSIONAL', 22, 'MONTHLY'), account)).json().data.costsMoreThanStaying,
    ).toEqual({
      currentYearlyNetMinor: professional,
      newYearlyNetMinor: (12900 + 7 * 700) * 12,
    });
    // An upgrade costs more by its nature: more seats are not flagged.
    expect(
      (await preview(change('PROFESSIONAL', 30, 'YEARLY'), account)).json().data.costsMoreThanStaying,
    ).toBeNull();
  });

  it('ends a cancelled subscription on the free plan without an invoice; a paid plan then starts anew', async () => {
    const account = await freshAccount();
    await midPeriod(account, 10);
    await confirm({ action: 'CANCEL', reason: 'UNUSED', comment: null }, 0, account);
    await endsToday(account);
    await runRenewals(api);
    expect(await get(account)).toMatchObject({
      status: 'CANCELLED',
      planCode: 'FREE',
      upcoming: null,
      cancelAtPeriodEnd: false,
    });
    expect(await invoiceCount(api, account)).toBe(0);

    const back = change('STANDARD', 5);
    const shown = (await preview(back, account)).json().data;
    expect(shown.charge.lines).toEqual([
      expect.objectContaining({ kind: 'PLAN', netMinor: 4900, prorated: false }),
    ]);
    const done = (await confirm(back, shown.charge.totals.totalMinor, account)).json().data;
    expect(done.subscription).toMatchObject({ status: 'ACTIVE', currentPeriodStart: today() });
  });

  it('numbers the invoices of concurrent confirmations without gaps', async () => {
    // Five accounts mid-period on Standard, all upgraded at once.
    const accounts: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const account = await freshAccount();
      await midPeriod(account, 5);
      accounts.push(account);
    }
    const charge = (await preview(TO_PRO, accounts[0])).json().data.charge.totals.totalMinor;
    const results = await Promise.all(accounts.map((account) => confirm(TO_PRO, charge, account)));
    expect(results.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const sequences of await invoiceSequences(api))
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
  });
});

// A VAT rate that changes five days from now, inside the current period.
const RATE_CHANGE = addDays(todayIn('Europe/Zurich'), 5);

describeApi(
  'subscriptions API with a VAT rate change inside the period',
  (api) => {
    it('splits the prorated lines at the change, and the invoice still equals the preview to the Rappen', async () => {
      const today = todayIn(api.config.billing.timeZone);
      const created = await api.request('POST', '/api/accounts/v1/accounts', {
        as: 'admin',
        body: { name: 'Steuerwechsel AG', country: 'CH', preferredLanguage: 'de' },
      });
      const account = created.json().data.uuid as string;
      const start = addDays(today, -3);
      await storeSubscription(api, account, {
        plan: 'STANDARD',
        period: 'MONTHLY',
        seats: 8,
        status: 'ACTIVE',
        start,
        end: periodEnd(start, 'MONTHLY', Number(start.slice(8, 10))),
      });
      const action: SubscriptionAction = {
        action: 'CHANGE',
        planCode: 'PROFESSIONAL',
        billingPeriod: 'MONTHLY',
        seats: 15,
      };
      const url = `${base(account)}/subscription`;
      const shown = (await api.request('POST', `${url}/preview`, { as: 'admin', body: action })).json().data;
      const lines = shown.charge.lines as { kind: string; vatRateBp: number; periodStart: string }[];
      expect(lines.map((line) => [line.kind, line.vatRateBp, line.periodStart])).toEqual([
        ['PLAN_CREDIT', 810, today],
        ['PLAN_CREDIT', 900, RATE_CHANGE],
        ['SEATS_CREDIT', 810, today],
        ['SEATS_CREDIT', 900, RATE_CHANGE],
        ['PLAN', 810, today],
        ['PLAN', 900, RATE_CHANGE],
      ]);
      expect(shown.charge.totals.vat.map((vat: { rateBp: number }) => vat.rateBp)).toEqual([900, 810]);
      const done = await api.request('POST', `${url}/confirm`, {
        as: 'admin',
        body: { action, expectedChargeMinor: shown.charge.totals.totalMinor },
      });
      expect(done.statusCode).toBe(200);
      const { rows } = await api.db.query<{ total_minor: string; totals: unknown }>(
        'select total_minor, totals from invoices where uuid = $1',
        [done.json().data.chargeInvoiceUuid],
      );
      expect(Number(rows[0]!.total_minor)).toBe(shown.charge.totals.totalMinor);
      expect(rows[0]!.totals).toEqual(shown.charge.totals);
    });
  },
  { env: { VAT_RATES: `7.7@2018-01-01,8.1@2024-01-01,9.0@${RATE_CHANGE}` } },
);

import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import {
  subscriptionsRoutes,
  type InvoiceTotals,
  type Plan,
  type RouteDef,
  type Subscription,
  type SubscriptionPreview,
} from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import SubscriptionsPage from './subscriptions-page.tsx';

mockApi();

const price = (monthlyMinor: number, seatMonthlyMinor: number) => ({
  monthlyMinor,
  yearlyMinor: monthlyMinor * 10,
  seatMonthlyMinor,
  seatYearlyMinor: seatMonthlyMinor * 10,
});
const PLANS: Plan[] = [
  {
    code: 'PROFESSIONAL',
    name: 'Professional',
    rank: 2,
    includedSeats: 15,
    maxSeats: null,
    features: ['INBOX', 'SSO'],
    prices: { CHF: price(12900, 700), EUR: price(11900, 650) },
  },
  {
    code: 'STANDARD',
    name: 'Standard',
    rank: 1,
    includedSeats: 5,
    maxSeats: 50,
    features: ['INBOX', 'AUDIT_LOG'],
    prices: { CHF: price(4900, 900), EUR: price(4500, 800) },
  },
];

function totals(totalMinor: number, extra: Partial<InvoiceTotals> = {}): InvoiceTotals {
  return {
    currency: 'CHF',
    netMinor: 7000,
    vat: [{ rateBp: 810, netMinor: 7000, vatMinor: 567 }],
    vatMinor: 567,
    roundingMinor: -2,
    totalMinor,
    ...extra,
  };
}

const SUBSCRIPTION: Subscription = {
  planCode: 'STANDARD',
  billingPeriod: 'MONTHLY',
  currency: 'CHF',
  seats: 5,
  seatsInUse: 4,
  status: 'ACTIVE',
  trialEndsOn: null,
  currentPeriodStart: '2026-11-01',
  currentPeriodEnd: '2026-12-01',
  cancelAtPeriodEnd: false,
  cancelReason: null,
  pendingChange: null,
  upcoming: { issuedOn: '2026-12-01', lines: [], totals: totals(5295) },
  updatedAt: '2026-11-01T00:00:00Z',
};

/** A prorated upgrade whose total is the server's: deliberately not the sum of the lines shown. */
function upgradePreview(totalMinor: number): SubscriptionPreview {
  return {
    effective: 'NOW',
    effectiveOn: '2026-11-16',
    charge: {
      lines: [
        {
          kind: 'PLAN',
          planCode: 'PROFESSIONAL',
          billingPeriod: 'MONTHLY',
          quantity: 1,
          unitMinor: 12900,
          netMinor: 6450,
          vatRateBp: 810,
          vatMinor: 522,
          periodStart: '2026-11-16',
          periodEnd: '2026-12-01',
          prorated: true,
        },
        {
          kind: 'PLAN_CREDIT',
          planCode: 'STANDARD',
          billingPeriod: 'MONTHLY',
          quantity: 1,
          unitMinor: 4900,
          netMinor: -2450,
          vatRateBp: 810,
          vatMinor: -198,
          periodStart: '2026-11-16',
          periodEnd: '2026-12-01',
          prorated: true,
        },
      ],
      totals: totals(totalMinor),
    },
    recurring: { from: '2026-12-01', totals: totals(13945) },
    costsMoreThanStaying: null,
    subscription: { ...SUBSCRIPTION, planCode: 'PROFESSIONAL', seats: 15 },
  };
}

/** Answers each route of the area; a list answers one call after the other, an Error is thrown. */
function serve(answers: Map<RouteDef, unknown>) {
  const calls = new Map<RouteDef, number>();
  apiRequest.mockImplementation(async (route: RouteDef) => {
    const answer = answers.get(route);
    const count = calls.get(route) ?? 0;
    calls.set(route, count + 1);
    const current = Array.isArray(answer) ? answer[Math.min(count, answer.length - 1)] : answer;
    if (current instanceof Error) throw current;
    return current;
  });
}

function serveWith(subscription: Subscription, more: [RouteDef, unknown][] = []) {
  serve(
    new Map<RouteDef, unknown>([
      [subscriptionsRoutes.listPlans, { data: { plans: PLANS } }],
      [subscriptionsRoutes.getSubscription, { data: subscription }],
      ...more,
    ]),
  );
}

async function renderAsAdmin(country = 'CH') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  const account = testAccount('a1', { name: 'Beispiel GmbH', accountRole: 'ADMIN', country });
  queryClient.setQueryData(queryKeys.me, testUser());
  queryClient.setQueryData(queryKeys.myAccounts, [account]);
  setCurrentAccountUuid('a1');
  return renderPage('/subscriptions', <SubscriptionsPage />, { queryClient });
}

/** Amounts as the contract writes them (decision 201); a space may be a no-break space ("8.1 %"). */
const chf = (text: string) => new RegExp(text.replace(/ /g, '\\s').replace(/\./g, '\\.'));

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

describe('subscriptions page', () => {
  it('shows the current subscription and the plans priced per chosen period, the current one marked', async () => {
    const user = userEvent.setup();
    serveWith(SUBSCRIPTION);
    await renderAsAdmin();
    expect(await screen.findByText('Standard, monatlich')).toBeTruthy();
    expect(screen.getByText('Aktiv')).toBeTruthy();
    expect(screen.getByText('4 von 5 genutzt')).toBeTruthy();
    expect(screen.getByText(chf('CHF 52.95 am 1. Dezember 2026'))).toBeTruthy();
    expect(screen.getByText('1.–30. November 2026')).toBeTruthy();

    const standard = screen.getByRole('article', { name: 'Standard' });
    expect(within(standard).getByText('Aktueller Plan')).toBeTruthy();
    expect(within(standard).getByText(chf('CHF 49.00'))).toBeTruthy();
    expect(within(standard).getByText('Protokoll aller Änderungen')).toBeTruthy();
    const professional = screen.getByRole('article', { name: 'Professional' });
    expect(within(professional).getByText('15 Benutzer inklusive')).toBeTruthy();
    expect(within(professional).getByText(chf('Jeder weitere Benutzer CHF 7.00 pro Monat'))).toBeTruthy();
    expect(within(professional).queryByText('Aktueller Plan')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Jährlich' }));
    expect(within(professional).getByText(chf("CHF 1'290.00"))).toBeTruthy();
    expect(within(standard).getByRole('button', { name: 'Zur jährlichen Abrechnung wechseln' })).toBeTruthy();
  });

  // Issue 23 items 9 and 10: a yearly Professional was "Aktueller Plan" on the monthly tab, and "Zu Standard
  // wechseln" proposed its 22 seats, which cost more than staying, unsaid.
  it('marks the current plan on its own period only, and proposes the fewest seats on a downgrade', async () => {
    const user = userEvent.setup();
    const yearly: Subscription = {
      ...SUBSCRIPTION,
      planCode: 'PROFESSIONAL',
      billingPeriod: 'YEARLY',
      seats: 22,
      seatsInUse: 4,
      currentPeriodStart: '2026-11-01',
      currentPeriodEnd: '2027-11-01',
    };
    const downgrade: SubscriptionPreview = {
      effective: 'PERIOD_END',
      effectiveOn: '2027-11-01',
      charge: null,
      recurring: { from: '2027-11-01', totals: totals(52969) },
      costsMoreThanStaying: { currentYearlyNetMinor: 178000, newYearlyNetMinor: 202000 },
      subscription: {
        ...yearly,
        pendingChange: {
          planCode: 'STANDARD',
          billingPeriod: 'YEARLY',
          seats: 22,
          effectiveOn: '2027-11-01',
        },
      },
    };
    serveWith(yearly, [[subscriptionsRoutes.previewSubscription, { data: downgrade }]]);
    await renderAsAdmin();
    const professional = await screen.findByRole('article', { name: 'Professional' });
    expect(within(professional).getByText('Aktueller Plan')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Monatlich' }));
    expect(within(professional).queryByText('Aktueller Plan')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Jährlich' }));

    await user.click(screen.getByRole('button', { name: 'Zu Standard wechseln' }));
    const dialog = await screen.findByRole('dialog');
    const seats = within(dialog).getByRole('spinbutton', { name: /Anzahl Benutzer/ }) as HTMLInputElement;
    expect(seats.value).toBe('5');
    await user.clear(seats);
    await user.type(seats, '22');
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));
    expect(
      await within(dialog).findByText(
        chf("Dieser Wechsel kostet mehr, als beim jetzigen Plan zu bleiben: CHF 2'020.00 statt CHF 1'780.00"),
      ),
    ).toBeTruthy();
  });

  // Issue 23 item 9: a cancellation said "endet am 1. November 2027" beside a period ending 31. Oktober 2027.
  it('names the last day of service of a cancelled subscription, as the period shows it', async () => {
    serveWith({
      ...SUBSCRIPTION,
      planCode: 'PROFESSIONAL',
      billingPeriod: 'YEARLY',
      currentPeriodStart: '2026-11-01',
      currentPeriodEnd: '2027-11-01',
      cancelAtPeriodEnd: true,
      cancelReason: null,
    });
    await renderAsAdmin();
    expect(await screen.findByText('1. November 2026 – 31. Oktober 2027')).toBeTruthy();
    expect(screen.getByText('Endet am 31. Oktober 2027')).toBeTruthy();
    expect(screen.getByText(/Gekündigt: Das Abonnement endet am 31\. Oktober 2027\./)).toBeTruthy();
    expect(screen.queryByText(/1\. November 2027/)).toBeNull();
  });

  it('writes a German account’s euros as Swiss customers read them', async () => {
    serveWith({ ...SUBSCRIPTION, currency: 'EUR' });
    await renderAsAdmin('DE');
    const standard = await screen.findByRole('article', { name: 'Standard' });
    expect(within(standard).getByText('EUR 45.00')).toBeTruthy();
  });

  it('previews an upgrade, shows the server’s total and confirms with exactly that total', async () => {
    const user = userEvent.setup();
    serveWith(SUBSCRIPTION, [
      [subscriptionsRoutes.previewSubscription, { data: upgradePreview(432455) }],
      [
        subscriptionsRoutes.confirmSubscription,
        { data: { subscription: upgradePreview(0).subscription, chargeInvoiceUuid: 'i1' } },
      ],
    ]);
    await renderAsAdmin();
    await user.click(await screen.findByRole('button', { name: 'Auf Professional wechseln' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zu Professional (monatlich) wechseln' });
    expect(
      (within(dialog).getByRole('spinbutton', { name: /Anzahl Benutzer/ }) as HTMLInputElement).value,
    ).toBe('15');
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));

    expect(await within(dialog).findByText('Gilt sofort, ab 16. November 2026.')).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(subscriptionsRoutes.previewSubscription, {
      accountUuid: 'a1',
      body: { action: 'CHANGE', planCode: 'PROFESSIONAL', billingPeriod: 'MONTHLY', seats: 15 },
    });
    const table = within(dialog).getByRole('table', { name: 'Jetzt verrechnet' });
    const row = (name: string) => within(table).getByRole('row', { name: chf(name) });
    expect(row('Professional, monatlich · anteilig 16.–30. November 2026 8.1 % CHF 64.50')).toBeTruthy();
    expect(
      row(
        'Gutschrift für nicht genutzte Zeit: Standard, monatlich · anteilig 16.–30. November 2026 8.1 % CHF -24.50',
      ),
    ).toBeTruthy();
    expect(row('MWST 8.1 % auf CHF 70.00 CHF 5.67')).toBeTruthy();
    expect(row('Rundung CHF -0.02')).toBeTruthy();
    expect(row("Total CHF inkl. MWST CHF 4'324.55")).toBeTruthy();
    expect(within(dialog).getByText(chf('Danach CHF 139.45 pro Monat'))).toBeTruthy();

    await user.click(
      within(dialog).getByRole('button', { name: chf("Bestätigen und CHF 4'324.55 verrechnen") }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiRequest).toHaveBeenCalledWith(subscriptionsRoutes.confirmSubscription, {
      accountUuid: 'a1',
      body: {
        action: { action: 'CHANGE', planCode: 'PROFESSIONAL', billingPeriod: 'MONTHLY', seats: 15 },
        expectedChargeMinor: 432455,
      },
    });
    expect(shownToasts('success')).toEqual(['Das Abonnement wurde geändert.']);
  });

  it('shows a new preview when the confirmation finds the old one outdated (409), and confirms that one', async () => {
    const user = userEvent.setup();
    serveWith(SUBSCRIPTION, [
      [
        subscriptionsRoutes.previewSubscription,
        [{ data: upgradePreview(4000) }, { data: upgradePreview(3950) }],
      ],
      [
        subscriptionsRoutes.confirmSubscription,
        [
          new ApiError(409, 'The charge is now 3950, not 4000', 'PREVIEW_OUTDATED'),
          { data: { subscription: upgradePreview(0).subscription, chargeInvoiceUuid: 'i1' } },
        ],
      ],
    ]);
    await renderAsAdmin();
    await user.click(await screen.findByRole('button', { name: 'Auf Professional wechseln' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));
    await user.click(
      await within(dialog).findByRole('button', { name: chf('Bestätigen und CHF 40.00 verrechnen') }),
    );

    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'Die Vorschau war nicht mehr aktuell. Hier sind die neuen Beträge: Bitte prüfen Sie sie und bestätigen Sie erneut.',
    );
    await user.click(
      within(dialog).getByRole('button', { name: chf('Bestätigen und CHF 39.50 verrechnen') }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const confirms = apiRequest.mock.calls.filter(
      ([route]) => route === subscriptionsRoutes.confirmSubscription,
    );
    expect(
      confirms.map(
        ([, input]) => (input as { body: { expectedChargeMinor: number } }).body.expectedChargeMinor,
      ),
    ).toEqual([4000, 3950]);
  });

  it('refuses fewer seats than are in use before asking the server', async () => {
    const user = userEvent.setup();
    serveWith(SUBSCRIPTION);
    await renderAsAdmin();
    await user.click(await screen.findByRole('button', { name: 'Anzahl Benutzer ändern' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anzahl Benutzer ändern' });
    const seats = within(dialog).getByRole('spinbutton', { name: /Anzahl Benutzer/ });
    await user.clear(seats);
    await user.type(seats, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));
    expect(
      await within(dialog).findByText(
        'Ihr Konto hat 4 Benutzer (Mitglieder und offene Einladungen): Weniger sind nicht möglich.',
      ),
    ).toBeTruthy();
    expect(apiRequest).not.toHaveBeenCalledWith(subscriptionsRoutes.previewSubscription, expect.anything());
  });

  it('cancels with a reason at the period end, charging nothing', async () => {
    const user = userEvent.setup();
    const cancelled = { ...SUBSCRIPTION, cancelAtPeriodEnd: true, cancelReason: 'UNUSED' as const };
    serveWith(SUBSCRIPTION, [
      [subscriptionsRoutes.getSubscription, [{ data: SUBSCRIPTION }, { data: cancelled }]],
      [
        subscriptionsRoutes.previewSubscription,
        {
          data: {
            effective: 'PERIOD_END',
            effectiveOn: '2026-12-01',
            charge: null,
            recurring: null,
            subscription: cancelled,
          },
        },
      ],
      [
        subscriptionsRoutes.confirmSubscription,
        { data: { subscription: cancelled, chargeInvoiceUuid: null } },
      ],
    ]);
    await renderAsAdmin();
    await user.click(await screen.findByRole('button', { name: 'Abonnement kündigen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Abonnement kündigen' });
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));
    expect(await within(dialog).findByText('Dieses Feld ist erforderlich')).toBeTruthy();
    await user.click(within(dialog).getByRole('combobox', { name: /Grund der Kündigung/ }));
    await user.click(await screen.findByRole('option', { name: 'Wird nicht genutzt' }));
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));
    expect(await within(dialog).findByText('Das Abonnement endet am 30. November 2026.')).toBeTruthy();
    expect(within(dialog).queryByText(/1\. Dezember 2026/)).toBeNull();
    expect(within(dialog).getByText('Jetzt wird nichts verrechnet.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Kündigung bestätigen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiRequest).toHaveBeenCalledWith(subscriptionsRoutes.confirmSubscription, {
      accountUuid: 'a1',
      body: { action: { action: 'CANCEL', reason: 'UNUSED', comment: null }, expectedChargeMinor: 0 },
    });
    expect(await screen.findByText(/Gekündigt: Das Abonnement endet am 30\. November 2026\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Kündigung zurücknehmen' })).toBeTruthy();
  });

  it('explains a refusal the server gives a code for, in German', async () => {
    const user = userEvent.setup();
    const cancelled = { ...SUBSCRIPTION, cancelAtPeriodEnd: true, cancelReason: 'OTHER' as const };
    serveWith(cancelled, [
      [
        subscriptionsRoutes.previewSubscription,
        new ApiError(409, 'The subscription is not cancelled', 'NOT_CANCELLED'),
      ],
    ]);
    await renderAsAdmin();
    await user.click(await screen.findByRole('button', { name: 'Kündigung zurücknehmen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kündigung zurücknehmen' });
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'Das Abonnement ist nicht gekündigt: Es gibt nichts zurückzunehmen.',
    );
    expect(apiRequest).toHaveBeenCalledWith(subscriptionsRoutes.previewSubscription, {
      accountUuid: 'a1',
      body: { action: 'RESUME' },
    });
    expect(shownToasts('error')).toEqual([]);
  });

  it('shows a trial’s end and a waiting downgrade, which the current plan’s card withdraws', async () => {
    const user = userEvent.setup();
    const waiting: Subscription = {
      ...SUBSCRIPTION,
      planCode: 'PROFESSIONAL',
      seats: 15,
      status: 'TRIALING',
      trialEndsOn: '2026-12-01',
      pendingChange: { planCode: 'STANDARD', billingPeriod: 'MONTHLY', seats: 5, effectiveOn: '2026-12-01' },
    };
    serveWith(waiting, [
      [
        subscriptionsRoutes.previewSubscription,
        {
          data: {
            effective: 'NOW',
            effectiveOn: '2026-11-20',
            charge: null,
            recurring: { from: '2026-12-01', totals: totals(13945) },
            subscription: { ...waiting, pendingChange: null },
          },
        },
      ],
    ]);
    await renderAsAdmin();
    expect(await screen.findByText('Testphase bis 30. November 2026')).toBeTruthy();
    expect(
      screen.getByText('Am 1. Dezember 2026 wechselt das Abonnement zu Standard, monatlich, 5 Benutzer.'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('article', { name: 'Standard' })).getByText('Geplant ab 1. Dezember 2026'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Bei Professional bleiben' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bei Professional bleiben' });
    await user.click(within(dialog).getByRole('button', { name: 'Weiter zur Vorschau' }));
    expect(await within(dialog).findByText('Jetzt wird nichts verrechnet.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Änderung bestätigen' })).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(subscriptionsRoutes.previewSubscription, {
      accountUuid: 'a1',
      body: { action: 'CHANGE', planCode: 'PROFESSIONAL', billingPeriod: 'MONTHLY', seats: 15 },
    });
  });
});

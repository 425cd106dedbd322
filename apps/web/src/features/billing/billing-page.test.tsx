import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  billingRoutes,
  subscriptionsRoutes,
  type BillingDetails,
  type Invoice,
  type InvoiceLine,
  type InvoiceTotals,
  type InvoiceSummary,
  type InvoicesList,
  type PostalAddress,
  type Subscription,
} from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { accountQueryClient } from '@/testing/account-query-client.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import BillingPage from './billing-page.tsx';

const apiFile = vi.fn();
mockApi({ file: (...args) => apiFile(...args) });
const saveFile = vi.fn();
vi.mock('@/api/save-file.ts', () => ({ saveFile: (...args: unknown[]) => saveFile(...args) }));
const leavePageTo = vi.fn();
vi.mock('./leave-page.ts', () => ({ leavePageTo: (...args: unknown[]) => leavePageTo(...args) }));

const totals: InvoiceTotals = {
  currency: 'CHF',
  netMinor: 49_000,
  vat: [{ rateBp: 810, netMinor: 49_000, vatMinor: 3969 }],
  vatMinor: 3969,
  roundingMinor: 1,
  totalMinor: 52_970,
};
const line: InvoiceLine = {
  kind: 'PLAN',
  planCode: 'PROFESSIONAL',
  billingPeriod: 'YEARLY',
  quantity: 1,
  unitMinor: 49_000,
  netMinor: 49_000,
  vatRateBp: 810,
  vatMinor: 3969,
  periodStart: '2027-01-01',
  periodEnd: '2028-01-01',
  prorated: false,
};

const SUBSCRIPTION: Subscription = {
  planCode: 'PROFESSIONAL',
  billingPeriod: 'YEARLY',
  currency: 'CHF',
  seats: 10,
  seatsInUse: 4,
  status: 'ACTIVE',
  trialEndsOn: null,
  currentPeriodStart: '2026-01-01',
  currentPeriodEnd: '2027-01-01',
  cancelAtPeriodEnd: false,
  cancelReason: null,
  pendingChange: null,
  upcoming: { issuedOn: '2027-01-01', lines: [line], totals },
  updatedAt: '2026-11-01T10:00:00Z',
};

const summary = (number: string, status: InvoiceSummary['status']): InvoiceSummary => ({
  uuid: `00000000-0000-4000-8000-${number.replace('-', '').padStart(12, '0')}`,
  number,
  kind: 'INVOICE',
  reason: 'PERIOD',
  status,
  currency: 'CHF',
  issuedOn: '2026-01-01',
  dueOn: '2026-01-31',
  periodStart: '2026-01-01',
  periodEnd: '2027-01-01',
  totalMinor: 123_450,
  paidMinor: status === 'PAID' ? 123_450 : 0,
});
/** Muster AG's address as the invoices and the billing details carry it. */
const ZURICH: PostalAddress = {
  street: 'Bahnhofstrasse',
  buildingNumber: '10',
  postcode: '8001',
  city: 'Zürich',
  country: 'CH',
};
const OPEN = summary('2026-000007', 'OPEN');
const PAID = summary('2025-000003', 'PAID');
const LIST: InvoicesList = {
  data: [OPEN, PAID],
  meta: {
    total: 2,
    page: 1,
    pageSize: 10,
    sums: [{ currency: 'CHF', invoicedMinor: 246_900, paidMinor: 123_450, outstandingMinor: 123_450 }],
  },
};
const INVOICE: Invoice = {
  ...PAID,
  lines: [line],
  totals,
  reference: '210000000003139471430009017',
  billedTo: {
    name: 'Muster AG',
    address: ZURICH,
    vatNumber: 'CHE-123.456.788 MWST',
    purchaseOrder: 'PO-4711',
  },
  relatedInvoice: null,
  payments: [{ bookedOn: '2025-01-20', amountMinor: 123_450, source: 'CAMT', note: null }],
  paidAt: '2025-01-20T10:00:00Z',
  voidedAt: null,
};
/** Nothing saved yet: the server proposes the company profile's address, UID and billing email. */
const DETAILS: BillingDetails = {
  name: 'Muster AG',
  address: ZURICH,
  vatNumber: 'CHE-123.456.788',
  recipients: ['buchhaltung@example.com'],
  purchaseOrder: null,
  paymentMethod: 'INVOICE',
  cardAvailable: false,
  card: null,
  updatedAt: null,
};

// Each test renders the whole page with MUI; on a busy machine that takes more than the default 5 s.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  apiRequest.mockReset();
  apiFile.mockReset();
  saveFile.mockReset();
  leavePageTo.mockReset();
  watchToasts();
});

/** The page for an admin of a Swiss account; each route answers what the test gives (`answers` first). */
async function renderBilling({
  details = DETAILS,
  at = '/billing',
  answers = new Map<unknown, () => Promise<unknown>>(),
} = {}) {
  const account = testAccount('a1', {
    name: 'Muster AG',
    accountRole: 'ADMIN',
    createdAt: '2024-03-01T00:00:00Z',
  });
  const queryClient = accountQueryClient(account);
  apiRequest.mockImplementation((route, input) => {
    const answer = answers.get(route);
    if (answer) return answer();
    if (route === subscriptionsRoutes.getSubscription) return Promise.resolve({ data: SUBSCRIPTION });
    if (route === subscriptionsRoutes.listPlans)
      return Promise.resolve({ data: { plans: [{ code: 'PROFESSIONAL', name: 'Professional' }] } });
    if (route === billingRoutes.listInvoices) return Promise.resolve(LIST);
    if (route === billingRoutes.getInvoice) {
      return input.params.invoiceUuid === INVOICE.uuid
        ? Promise.resolve({ data: INVOICE })
        : Promise.reject(new ApiError(404, 'Not found', 'NOT_FOUND'));
    }
    if (route === billingRoutes.getBillingDetails) return Promise.resolve({ data: details });
    return Promise.reject(new Error('unexpected'));
  });
  const rendered = await renderPage(
    '/billing',
    <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
      <BillingPage />
    </PortalThemeProvider>,
    { queryClient, at },
  );
  await screen.findByRole('table', { name: 'Rechnungen', hidden: true });
  return rendered;
}

const invoiceCalls = () => apiRequest.mock.calls.filter(([route]) => route === billingRoutes.listInvoices);

describe('billing page', () => {
  it('shows the plan, the next invoice and the invoices in Swiss francs, in German', async () => {
    await renderBilling();
    const plan = screen.getByRole('region', { name: 'Aktuelles Abo' });
    expect(await within(plan).findByText('Professional')).toBeTruthy();
    expect(within(plan).getByText('jährlich')).toBeTruthy();
    expect(within(plan).getByText(/^Nächste Rechnung am 1\. Januar 2027: CHF 529\.70$/)).toBeTruthy();
    const next = within(screen.getByRole('region', { name: 'Nächste Rechnung' }));
    expect(next.getByText('Professional, jährlich')).toBeTruthy();
    expect(next.getByText(/^MWST 8\.1\s?% auf CHF 490\.00$/)).toBeTruthy();
    expect(next.getByText('Rundung')).toBeTruthy();
    expect(next.getByText('Total CHF inkl. MWST')).toBeTruthy();

    const table = screen.getByRole('table', { name: 'Rechnungen' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('2026-000007')).toBeTruthy();
    expect(within(rows[1]!).getByText('Offen')).toBeTruthy();
    expect(within(rows[1]!).getByText(/^CHF 1[’']234\.50$/)).toBeTruthy();
    expect(within(rows[2]!).getByText('Bezahlt')).toBeTruthy();
    expect(screen.getByText('Verrechnet').nextElementSibling?.textContent).toMatch(/^CHF\s2[’']469\.00$/);
    expect(screen.getByText('Offen', { selector: 'dt' }).nextElementSibling?.textContent).toMatch(
      /^CHF\s1[’']234\.50$/,
    );
    expect(screen.getByText('Zeilen pro Seite')).toBeTruthy();
  });

  it('filters by status and year through the address bar; a new filter starts at page one', async () => {
    const user = userEvent.setup();
    const { router } = await renderBilling({ at: '/billing?page=2' });
    expect(invoiceCalls().at(-1)![1].query).toEqual({ page: 2, pageSize: 10 });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Überfällig' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=OVERDUE'));
    expect(invoiceCalls().at(-1)![1].query).toEqual({ status: 'OVERDUE', page: 1, pageSize: 10 });
    await user.click(screen.getByRole('combobox', { name: 'Jahr' }));
    const years = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(years).toContain('2024');
    expect(years).not.toContain('2023');
    await user.click(screen.getByRole('option', { name: '2025' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=OVERDUE&year=2025'));
    expect(invoiceCalls().at(-1)![1].query).toEqual({ status: 'OVERDUE', year: 2025, page: 1, pageSize: 10 });
  });

  it('downloads an invoice PDF from a button named after the invoice', async () => {
    const user = userEvent.setup();
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    apiFile.mockResolvedValue({ blob: pdf, fileName: null });
    await renderBilling();
    await user.click(
      await screen.findByRole('button', { name: 'PDF der Rechnung 2025-000003 herunterladen' }),
    );
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(pdf, '2025-000003.pdf'));
    expect(apiFile).toHaveBeenCalledWith(billingRoutes.getInvoicePdf, {
      accountUuid: 'a1',
      params: { invoiceUuid: PAID.uuid },
    });
  });

  it('opens an invoice in a dialog named in the address bar: lines, VAT, payments, billed-to', async () => {
    const user = userEvent.setup();
    const { router } = await renderBilling();
    await user.click(await screen.findByRole('button', { name: '2025-000003' }));
    const dialog = within(await screen.findByRole('dialog', { name: /Rechnung 2025-000003/ }));
    expect(router.state.location.search).toBe(`?invoice=${PAID.uuid}`);
    expect(await dialog.findByText('21 00000 00003 13947 14300 09017')).toBeTruthy();
    expect(dialog.getByText(/Bahnhofstrasse 10/)).toBeTruthy();
    expect(dialog.getByText('Ihre Bestellreferenz: PO-4711')).toBeTruthy();
    expect(dialog.getByText('Bankzahlung')).toBeTruthy();
    expect(dialog.getByText(/^MWST 8\.1\s?% auf CHF 490\.00$/)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Schliessen' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("says so when the address bar names another account's invoice", async () => {
    await renderBilling({ at: '/billing?invoice=00000000-0000-4000-8000-000000000999' });
    const dialog = within(await screen.findByRole('dialog'));
    expect(
      await dialog.findByText('Diese Rechnung gibt es nicht oder sie gehört zu einem anderen Konto.'),
    ).toBeTruthy();
    expect(shownToasts('error')).toEqual([]);
  });

  it(
    "starts from the server's proposal; a bad postcode, an empty street and a bad UID change nothing",
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderBilling();
      const form = within(await screen.findByRole('form', { name: 'Rechnungsadresse bearbeiten' }));
      const field = (name: RegExp) => form.getByRole('textbox', { name });
      expect(field(/^Strasse/)).toHaveProperty('value', 'Bahnhofstrasse');
      expect(field(/^Hausnummer/)).toHaveProperty('value', '10');
      expect(field(/^E-Mail-Adresse 1/)).toHaveProperty('value', 'buchhaltung@example.com');
      expect(field(/^UID- oder MWST-Nummer/)).toHaveProperty('value', 'CHE-123.456.788');
      await user.clear(field(/^PLZ/));
      await user.type(field(/^PLZ/), '80331');
      await user.clear(field(/^Strasse/));
      await user.clear(field(/^UID- oder MWST-Nummer/));
      await user.type(field(/^UID- oder MWST-Nummer/), 'CHE-123.456.789 MWST');
      await user.click(form.getByRole('button', { name: 'E-Mail-Adresse hinzufügen' }));
      await user.type(field(/^E-Mail-Adresse 2/), 'Buchhaltung@example.com');
      await user.click(form.getByRole('button', { name: 'Speichern' }));
      expect(await form.findByText('Die Postleitzahl passt nicht zum gewählten Land')).toBeTruthy();
      expect(form.getByText('Dieses Feld ist erforderlich')).toBeTruthy();
      expect(form.getByText('Die UID-Nummer ist ungültig: Die Prüfziffer stimmt nicht')).toBeTruthy();
      expect(form.getByText('Diese Adresse steht schon in der Liste')).toBeTruthy();
      expect(apiRequest).not.toHaveBeenCalledWith(billingRoutes.updateBillingDetails, expect.anything());
      expect(shownToasts('error')).toEqual(['4 Felder sind nicht korrekt']);
      // In Germany the number is a VAT number with the country's prefix.
      await user.click(form.getByRole('combobox', { name: /^Land/ }));
      await user.click(await screen.findByRole('option', { name: 'Deutschland' }));
      expect(await form.findByText(/^Die MWST-Nummer ist ungültig/)).toBeTruthy();
    },
  );

  it('saves a structured address with several recipients; the answer shows as the card', async () => {
    const user = userEvent.setup();
    await renderBilling();
    const card = within(screen.getByRole('region', { name: 'Rechnungsadresse' }));
    expect(
      await card.findByText(
        'Diese Angaben stammen aus dem Firmenprofil und sind noch nicht gespeichert. Bitte prüfen und speichern Sie sie.',
      ),
    ).toBeTruthy();
    const form = within(await screen.findByRole('form', { name: 'Rechnungsadresse bearbeiten' }));
    await user.click(form.getByRole('button', { name: 'E-Mail-Adresse hinzufügen' }));
    await user.type(form.getByRole('textbox', { name: /^E-Mail-Adresse 2/ }), 'kreditoren@example.com');
    await user.type(form.getByRole('textbox', { name: /^Bestellreferenz/ }), 'PO-4711');
    const saved: BillingDetails = {
      ...DETAILS,
      vatNumber: 'CHE-123.456.788',
      recipients: ['buchhaltung@example.com', 'kreditoren@example.com'],
      purchaseOrder: 'PO-4711',
      updatedAt: '2026-11-22T10:00:00Z',
    };
    apiRequest.mockImplementation((route) =>
      route === billingRoutes.updateBillingDetails
        ? Promise.resolve({ data: saved })
        : Promise.reject(new Error('unexpected')),
    );
    await user.click(form.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(shownToasts('success')).toEqual(['Die Rechnungsangaben wurden gespeichert.']));
    expect(apiRequest).toHaveBeenCalledWith(billingRoutes.updateBillingDetails, {
      accountUuid: 'a1',
      body: {
        address: saved.address,
        vatNumber: 'CHE-123.456.788',
        recipients: ['buchhaltung@example.com', 'kreditoren@example.com'],
        purchaseOrder: 'PO-4711',
        paymentMethod: 'INVOICE',
      },
    });
    expect(await card.findByRole('button', { name: 'Bearbeiten' })).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Zahlungsart' })).getByText(
        'Rechnungen gehen an: buchhaltung@example.com, kreditoren@example.com',
      ),
    ).toBeTruthy();
  });

  it("puts the server's field errors on the fields", async () => {
    const user = userEvent.setup();
    await renderBilling({
      details: {
        ...DETAILS,
        address: {
          street: 'Hauptstrasse',
          buildingNumber: '1',
          postcode: '3000',
          city: 'Bern',
          country: 'CH',
        },
        recipients: ['a@example.com'],
        updatedAt: '2026-11-20T10:00:00Z',
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
    const form = within(await screen.findByRole('form', { name: 'Rechnungsadresse bearbeiten' }));
    apiRequest.mockRejectedValue(
      new ApiError(422, 'Invalid', 'VALIDATION_FAILED', { 'address.postcode': 'postcode' }),
    );
    await user.type(form.getByRole('textbox', { name: /^Ort/ }), ' Bümpliz');
    await user.click(form.getByRole('button', { name: 'Speichern' }));
    await waitFor(() =>
      expect(form.getByRole('textbox', { name: /^PLZ/ }).getAttribute('aria-invalid')).toBe('true'),
    );
    expect(form.getByText('Die Postleitzahl passt nicht zum gewählten Land')).toBeTruthy();
  });
});

describe('paying by card', () => {
  const SAVED: BillingDetails = { ...DETAILS, cardAvailable: true, updatedAt: '2026-11-20T10:00:00Z' };
  const WITH_CARD: BillingDetails = {
    ...SAVED,
    paymentMethod: 'CARD',
    card: { brand: 'visa', last4: '4242' },
  };

  it('shows nothing about cards without a card provider', async () => {
    await renderBilling();
    const method = screen.getByRole('region', { name: 'Zahlungsart' });
    expect(await within(method).findByText('QR-Rechnung per E-Mail')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Karte hinterlegen' })).toBeNull();
    expect(screen.queryByText(/Karte/)).toBeNull();
  });

  it('opens the card provider page from "Karte hinterlegen", by keyboard', async () => {
    const user = userEvent.setup();
    const url = 'https://checkout.stripe.com/c/x';
    await renderBilling({
      details: SAVED,
      answers: new Map([[billingRoutes.startCardSetup, () => Promise.resolve({ data: { url } })]]),
    });
    const method = within(screen.getByRole('region', { name: 'Zahlungsart' }));
    const add = await method.findByRole('button', { name: 'Karte hinterlegen' });
    add.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(leavePageTo).toHaveBeenCalledWith(url));
    expect(apiRequest).toHaveBeenCalledWith(billingRoutes.startCardSetup, { accountUuid: 'a1' });
    expect(method.getByRole('button', { name: 'Wird geöffnet …' }).hasAttribute('disabled')).toBe(true);
  });

  it('keeps the card once on return from the provider, shows it and removes it again', async () => {
    const user = userEvent.setup();
    const { router } = await renderBilling({
      details: SAVED,
      at: '/billing?uuid=a1&cardSession=cs_test_1',
      answers: new Map<unknown, () => Promise<unknown>>([
        [billingRoutes.completeCardSetup, () => Promise.resolve({ data: WITH_CARD })],
        [billingRoutes.removeCard, () => Promise.resolve({ data: SAVED })],
      ]),
    });
    const region = screen.getByRole('region', { name: 'Zahlungsart' });
    const method = within(region);
    expect(
      await method.findByText('Die Karte ist hinterlegt. Neue Rechnungen werden von ihr abgebucht.'),
    ).toBeTruthy();
    expect(method.getByText('Kreditkarte')).toBeTruthy();
    expect(region.textContent).toContain('Visa •••• 4242');
    expect(router.state.location.search).toBe('?uuid=a1');
    expect(apiRequest.mock.calls.filter(([route]) => route === billingRoutes.completeCardSetup)).toEqual([
      [billingRoutes.completeCardSetup, { accountUuid: 'a1', body: { sessionId: 'cs_test_1' } }],
    ]);

    await user.click(method.getByRole('button', { name: 'Karte entfernen' }));
    await waitFor(() =>
      expect(shownToasts('success')).toEqual([
        'Die Karte ist entfernt. Sie erhalten wieder Rechnungen mit QR-Rechnung.',
      ]),
    );
    expect(await method.findByRole('button', { name: 'Karte hinterlegen' })).toBeTruthy();
    expect(region.textContent).not.toContain('4242');
  });

  it('an open billing details form follows the card removed meanwhile', async () => {
    const user = userEvent.setup();
    const proposal: BillingDetails = { ...DETAILS, cardAvailable: true };
    const withCard: BillingDetails = {
      ...proposal,
      paymentMethod: 'CARD',
      card: { brand: 'visa', last4: '4242' },
    };
    await renderBilling({
      details: withCard,
      answers: new Map([[billingRoutes.removeCard, () => Promise.resolve({ data: proposal })]]),
    });
    const form = within(await screen.findByRole('form', { name: 'Rechnungsadresse bearbeiten' }));
    expect(form.getByRole('combobox', { name: /^Zahlungsart/ }).textContent).toBe('Kreditkarte');
    await user.click(screen.getByRole('button', { name: 'Karte entfernen' }));
    await waitFor(() =>
      expect(form.getByRole('combobox', { name: /^Zahlungsart/ }).textContent).toBe('QR-Rechnung per E-Mail'),
    );
  });
});

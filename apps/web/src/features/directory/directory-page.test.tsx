import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { directoryRoutes, type DirectoryAccount } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import DirectoryPage from './directory-page.tsx';

mockApi();

const MUSTER: DirectoryAccount = {
  uuid: '6f1c2b1e-0002-4000-8000-000000000001',
  name: 'Muster AG',
  country: 'CH',
  uid: 'CHE-123.456.788',
  createdAt: '2025-10-25T10:00:00.000Z',
  matchedBy: ['uid'],
  subscription: {
    planCode: 'PROFESSIONAL',
    planName: 'Professional',
    status: 'PAST_DUE',
    cancelAtPeriodEnd: false,
    currentPeriodEnd: '2027-11-01',
  },
  membersCount: 5,
  owner: { name: 'Olivia Owner', email: 'owner@example.com' },
  invoices: {
    openCount: 2,
    overdueCount: 1,
    amounts: [
      { currency: 'CHF', openMinor: 162150, overdueMinor: 50000 },
      { currency: 'EUR', openMinor: 9730, overdueMinor: 0 },
    ],
  },
  openTickets: 2,
  availableUntil: null,
  twoFactor: { required: true, graceUntil: null },
  mayOpen: true,
};

const BEISPIEL: DirectoryAccount = {
  ...MUSTER,
  uuid: '6f1c2b1e-0002-4000-8000-000000000002',
  name: 'Beispiel GmbH',
  country: 'DE',
  uid: null,
  matchedBy: [],
  subscription: null,
  owner: { name: 'Isabelle Inhaber' },
  invoices: { openCount: 0, overdueCount: 0 },
  openTickets: 0,
  availableUntil: '2026-12-17T10:00:00.000Z',
  twoFactor: { required: false, graceUntil: null },
  mayOpen: false,
};

const list = (
  data: DirectoryAccount[],
  total: number | null = data.length,
  nextCursor: string | null = null,
) => ({
  data,
  meta: { pageSize: 25, nextCursor, total },
});

beforeEach(() => {
  apiRequest.mockReset();
});

describe('account directory page', { timeout: 20_000 }, () => {
  it('searches on the server with the text from the address, and shows each summary as it came', async () => {
    apiRequest.mockImplementation(async (route, input) => {
      expect(route).toBe(directoryRoutes.searchDirectory);
      const { q, cursor } = (input as { query: { q?: string; cursor?: string } }).query;
      if (q) return list([MUSTER], 1);
      // Every account, not counted, a page at a time along the server's cursor.
      return cursor === 'after-beispiel' ? list([MUSTER], null) : list([BEISPIEL], null, 'after-beispiel');
    });
    const user = userEvent.setup();
    await renderPage('/accounts/directory', <DirectoryPage />);

    // Every account by name first; more along the cursor, appended.
    const results = await screen.findByRole('list', { name: 'Gefundene Konten' });
    expect(await within(results).findByRole('heading', { name: 'Beispiel GmbH' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('1 Konto angezeigt');
    await user.click(screen.getByRole('button', { name: 'Weitere laden' }));
    expect(await within(results).findByRole('heading', { name: 'Muster AG' })).toBeTruthy();
    expect(apiRequest).toHaveBeenLastCalledWith(
      directoryRoutes.searchDirectory,
      expect.objectContaining({ query: { cursor: 'after-beispiel' } }),
    );
    expect(screen.getByRole('status').textContent).toBe('2 Konten angezeigt');
    expect(screen.queryByRole('button', { name: 'Weitere laden' })).toBeNull();
    const beispiel = within(results).getAllByRole('listitem')[0]!;
    expect(
      within(beispiel).getByText(
        'Öffnen erst, wenn die Kundin oder der Kunde es in einem offenen Ticket erlaubt.',
      ),
    ).toBeTruthy();
    expect(within(beispiel).queryByRole('link')).toBeNull();
    expect(within(beispiel).getByText('Noch kein Abo')).toBeTruthy();
    expect(within(beispiel).getByText('Geplant für den 17. Dezember 2026')).toBeTruthy();
    // An agent's answer carries no amounts and no owner's address: nothing shows them.
    expect(within(beispiel).queryByText(/CHF/)).toBeNull();
    expect(within(beispiel).queryByText(/überfällig/)).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Konto suchen' }), ' che 123 456 788 {Enter}');
    expect(apiRequest).toHaveBeenLastCalledWith(
      directoryRoutes.searchDirectory,
      expect.objectContaining({ query: { q: 'che 123 456 788' } }),
    );
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    const hit = screen.getByRole('listitem');
    expect(screen.getByRole('status').textContent).toBe('1 von 1 angezeigt');
    expect(within(hit).getByRole('heading', { name: 'Muster AG' })).toBeTruthy();
    expect(within(hit).getByText('CHE-123.456.788 · Schweiz')).toBeTruthy();
    expect(within(hit).getByText('Gefunden über die UID')).toBeTruthy();
    expect(within(hit).getByText('Zahlung überfällig')).toBeTruthy();
    expect(within(hit).getByText('2, davon 1 überfällig')).toBeTruthy();
    expect(within(hit).getByText('owner@example.com')).toBeTruthy();
    expect(within(hit).getByText("CHF 1'621.50 offen, davon CHF 500.00 überfällig")).toBeTruthy();
    // Nothing overdue in a currency: no "davon EUR 0.00 überfällig".
    expect(within(hit).getByText('EUR 97.30 offen')).toBeTruthy();
    expect(within(hit).getByText('Für alle Mitglieder verlangt')).toBeTruthy();
    expect(within(hit).getByRole('link', { name: 'Konto Muster AG öffnen' }).getAttribute('href')).toBe(
      `/?uuid=${MUSTER.uuid}`,
    );
  });

  it('says when nothing is found', async () => {
    apiRequest.mockResolvedValue(list([]));
    await renderPage('/accounts/directory', <DirectoryPage />, { at: '/accounts/directory?q=Nr.%2099' });
    expect(await screen.findByText('Kein Konto gefunden')).toBeTruthy();
    expect((screen.getByRole('searchbox', { name: 'Konto suchen' }) as HTMLInputElement).value).toBe(
      'Nr. 99',
    );
    expect(apiRequest).toHaveBeenCalledWith(
      directoryRoutes.searchDirectory,
      expect.objectContaining({ query: { q: 'Nr. 99' } }),
    );
  });
});

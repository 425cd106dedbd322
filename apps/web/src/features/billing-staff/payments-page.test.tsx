import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { billingStaffRoutes, usersRoutes, type BankPayment } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys } from '@/api/session.ts';
import { testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import PaymentsPage from './payments-page.tsx';

mockApi();

const UNMATCHED: BankPayment = {
  uuid: 'b0000000-0000-4000-8000-000000000001',
  status: 'UNMATCHED',
  bookedOn: '2026-11-20',
  amountMinor: 9900,
  currency: 'CHF',
  problem: 'UNKNOWN_REFERENCE',
  overpaidMinor: 0,
  reference: '210000000003139471430009017',
  debtorName: 'Gebr. Müller',
  invoice: null,
  note: null,
  importUuid: 'i0000000-0000-4000-8000-000000000001',
};

const list = <T,>(data: T[]) => ({ data, meta: { total: data.length, page: 1, pageSize: 25 } });

function setup(answer: (route: unknown, input: { body?: unknown; query?: object }) => unknown) {
  const me = testUser({ userRole: 'SUPPORT_MANAGER' });
  apiRequest.mockImplementation(async (route, input) =>
    route === usersRoutes.getMe ? { data: me } : answer(route, input),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(queryKeys.me, me);
  return queryClient;
}

async function render(queryClient: QueryClient) {
  await renderPage(
    '/billing/payments',
    <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
      <PaymentsPage />
    </PortalThemeProvider>,
    { queryClient },
  );
}

beforeEach(() => {
  apiRequest.mockReset();
});

describe('payments page', { timeout: 20_000 }, () => {
  it('lists the credits to handle with the reason, and books one only with an invoice and a note', async () => {
    const queryClient = setup((route) =>
      route === billingStaffRoutes.listPayments ? list([UNMATCHED]) : list([]),
    );
    await render(queryClient);
    const row = (await screen.findByText('Gebr. Müller')).closest('tr')!;
    expect(within(row).getByText('Nicht zugeordnet')).toBeTruthy();
    expect(within(row).getByText('Unbekannte Referenz')).toBeTruthy();
    expect(within(row).getByText('21 00000 00003 13947 14300 09017')).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(
      billingStaffRoutes.listPayments,
      expect.objectContaining({ query: { page: 1, pageSize: 25, status: 'TO_HANDLE' } }),
    );

    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /^Auf Rechnung buchen: CHF/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Gutschrift auf Rechnung buchen' });
    await user.click(within(dialog).getByRole('button', { name: 'Auf Rechnung buchen' }));
    expect(within(dialog).getByText('Bitte eine offene Rechnung wählen.')).toBeTruthy();
    expect(within(dialog).getByText('Bitte ausfüllen.')).toBeTruthy();
    // A note alone is not enough to book: the invoice is missing still.
    await user.type(within(dialog).getByRole('textbox', { name: 'Notiz' }), 'Falsche Referenz');
    await user.click(within(dialog).getByRole('button', { name: 'Auf Rechnung buchen' }));
    expect(within(dialog).getByText('Bitte eine offene Rechnung wählen.')).toBeTruthy();
    expect(apiRequest).not.toHaveBeenCalledWith(billingStaffRoutes.assignPayment, expect.anything());
  });

  it('says in its words why a file was refused', async () => {
    const queryClient = setup((route) => {
      if (route === billingStaffRoutes.importPayments) {
        throw new ApiError(409, 'This file was already imported', 'ALREADY_IMPORTED', {
          file: 'camtAlreadyImported',
        });
      }
      return list([]);
    });
    await render(queryClient);
    await screen.findByText('Keine Gutschriften zu bearbeiten.');
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    fireEvent.change(input, {
      target: { files: [new File(['<Document/>'], 'camt054.xml', { type: 'application/xml' })] },
    });
    expect(
      await screen.findByText('Diese Datei wurde bereits importiert. Es wurde nichts erneut verbucht.'),
    ).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(
      billingStaffRoutes.importPayments,
      expect.objectContaining({ body: { file: { fileName: 'camt054.xml', content: btoa('<Document/>') } } }),
    );
  });
});

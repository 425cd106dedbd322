import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  supportRoutes,
  type AccountRole,
  type SupportTicket,
  type SupportTicketDetail,
} from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import TicketPage from './ticket-page.tsx';

mockApi();

const TICKET = 't0000000-0000-4000-8000-000000000001';

function detail(extra: Partial<SupportTicket> = {}): { data: SupportTicketDetail } {
  return {
    data: {
      ticket: {
        uuid: TICKET,
        number: 10042,
        accountUuid: 'a1',
        category: 'TECHNICAL',
        severity: 'HIGH',
        subject: 'Export bricht ab',
        status: 'OPEN',
        staffAccessConsent: false,
        createdBy: { uuid: 'u2', name: 'Adrian Admin' },
        assignee: null,
        createdAt: '2026-11-20T08:00:00.000Z',
        updatedAt: '2026-11-20T08:00:00.000Z',
        awaitingAgentSince: null,
        solvedAt: null,
        messageCount: 0,
        lastMessageAt: '2026-11-20T08:00:00.000Z',
        ...extra,
      },
      messages: [],
    },
  };
}

beforeEach(() => {
  apiRequest.mockReset();
  storeAccountUuid('a1');
  setCurrentAccountUuid('a1');
});

async function renderTicket(ticket: Partial<SupportTicket>, accountRole: AccountRole = 'ADMIN') {
  // The server's ticket: a change of the consent stays for the reads after it.
  let current = { ...ticket };
  apiRequest.mockImplementation((route: unknown, options: { body?: { staffAccessConsent: boolean } }) => {
    if (route === supportRoutes.setTicketConsent) {
      current = { ...current, staffAccessConsent: options.body!.staffAccessConsent };
    }
    return Promise.resolve(detail(current));
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: Infinity },
    mutations: { retry: false },
  });
  queryClient.setQueryData(queryKeys.myAccounts, [testAccount('a1', { accountRole })]);
  await renderPage(
    '/t',
    <ConfirmProvider>
      <TicketPage ticketUuid={TICKET} />
    </ConfirmProvider>,
    { queryClient },
  );
  await screen.findByRole('heading', { level: 1, name: 'Export bricht ab' });
  return screen.getByRole('region', { name: 'Zugriff des Supports' });
}

describe("the ticket page's access of support", { timeout: 30_000 }, () => {
  it('says support has access until the ticket is solved, and the customer ends it', async () => {
    const card = await renderTicket({ staffAccessConsent: true });
    expect(
      within(card).getByText('Der Support hat Zugriff auf Ihr Konto, bis die Anfrage gelöst ist.'),
    ).toBeTruthy();
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Zugriff beenden' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(supportRoutes.setTicketConsent, {
        accountUuid: 'a1',
        params: { ticketUuid: TICKET },
        body: { staffAccessConsent: false },
      }),
    );
    expect(await within(card).findByText('Der Support hat keinen Zugriff auf Ihr Konto.')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Zugriff erlauben' })).toBeTruthy();
  });

  it('offers to allow access on an open ticket without it', async () => {
    const card = await renderTicket({ status: 'WAITING_FOR_CUSTOMER' });
    expect(within(card).getByText('Der Support hat keinen Zugriff auf Ihr Konto.')).toBeTruthy();
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Zugriff erlauben' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(supportRoutes.setTicketConsent, {
        accountUuid: 'a1',
        params: { ticketUuid: TICKET },
        body: { staffAccessConsent: true },
      }),
    );
    expect(await within(card).findByRole('button', { name: 'Zugriff beenden' })).toBeTruthy();
  });

  it('offers nothing on a solved ticket: reopening does not bring access back either', async () => {
    const card = await renderTicket({ status: 'SOLVED', solvedAt: new Date().toISOString() });
    expect(
      within(card).getByText(/Der Zugriff endet, wenn die Anfrage gelöst oder geschlossen wird/),
    ).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('shows staff reading the account the state, without a way to change it', async () => {
    const card = await renderTicket({ staffAccessConsent: true }, 'SUPPORT');
    expect(within(card).getByText(/Der Support hat Zugriff auf Ihr Konto/)).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
  });
});

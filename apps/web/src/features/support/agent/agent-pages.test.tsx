import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import {
  ATTACHMENT_MAX_BYTES,
  supportAgentRoutes,
  usersRoutes,
  type AgentTicketDetail,
  type QueueTicket,
  type SupportMessage,
  type UserRole,
} from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { queryKeys } from '@/api/session.ts';
import { testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import AgentTicketPage from './agent-ticket-page.tsx';
import QueuePage from './queue-page.tsx';

mockApi();

/** Picks files in the composer's file picker. */
function choose(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files } });
}

const ME = 'a0000000-0000-4000-8000-000000000001';

function ticket(extra: Partial<QueueTicket> = {}): QueueTicket {
  return {
    uuid: 't0000000-0000-4000-8000-000000000001',
    number: 10042,
    accountUuid: 'c0000000-0000-4000-8000-000000000001',
    accountName: 'Muster AG',
    category: 'TECHNICAL',
    severity: 'HIGH',
    subject: 'Export bricht ab',
    status: 'OPEN',
    staffAccessConsent: true,
    createdBy: { uuid: 'u2', name: 'Adrian Admin' },
    assignee: null,
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    awaitingAgentSince: new Date(Date.now() - 26 * 3600_000).toISOString(),
    solvedAt: null,
    messageCount: 2,
    lastMessageAt: '2026-11-20T08:00:00.000Z',
    ...extra,
  };
}

function message(extra: Partial<SupportMessage>): SupportMessage {
  return {
    uuid: crypto.randomUUID(),
    authorKind: 'CUSTOMER',
    authorName: 'Adrian Admin',
    authorUuid: 'u2',
    internal: false,
    body: 'Der Export bricht ab.',
    createdAt: '2026-11-20T08:00:00.000Z',
    attachments: [],
    ...extra,
  };
}

/** A signed-in user with this role (the guard has loaded it); the API's answers come from `answer`. */
function setup(
  role: UserRole,
  answer: (route: unknown, input: { query?: object; body?: object }) => unknown,
) {
  const me = testUser({ uuid: ME, userRole: role });
  apiRequest.mockImplementation(async (route, input) => {
    return route === usersRoutes.getMe
      ? { data: me }
      : route === supportAgentRoutes.agentList
        ? { data: [], meta: { total: 0, page: 1, pageSize: 0 } }
        : answer(route, input);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(queryKeys.me, me);
  return queryClient;
}

const detail = (extra: Partial<QueueTicket> = {}): AgentTicketDetail => ({
  ticket: ticket(extra),
  messages: [
    message({}),
    message({ authorKind: 'AGENT', authorName: 'Aaron Agent', internal: true, body: 'Altes Abo, prüfen.' }),
  ],
});

beforeEach(() => {
  apiRequest.mockReset();
});

const TICKET = 't0000000-0000-4000-8000-000000000001';

describe('support queue page', { timeout: 20_000 }, () => {
  it('lists tickets with account, waiting time and status, and pages on the server', async () => {
    const queryClient = setup('SUPPORT_AGENT', (_route, input) => ({
      data: [ticket()],
      meta: { total: 60, ...input?.query },
    }));
    const user = userEvent.setup();
    const { router } = await renderPage(
      '/support/queue',
      <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
        <QueuePage />
      </PortalThemeProvider>,
      { queryClient },
    );
    const row = (await screen.findByRole('link', { name: 'Export bricht ab' })).closest('tr')!;
    expect(within(row).getByText('Muster AG')).toBeTruthy();
    expect(within(row).getByText('26 Stunden')).toBeTruthy();
    expect(within(row).getByText('Offen')).toBeTruthy();
    expect(within(row).getByText('Nicht zugewiesen')).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(
      supportAgentRoutes.agentQueue,
      expect.objectContaining({
        query: expect.objectContaining({ status: 'ACTIVE', page: 1, pageSize: 25 }),
      }),
    );
    expect(screen.getByText('Zeilen pro Seite')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Zur nächsten Seite' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(apiRequest).toHaveBeenLastCalledWith(
      supportAgentRoutes.agentQueue,
      expect.objectContaining({ query: expect.objectContaining({ page: 2 }) }),
    );
  });

  it('keeps the filters in the address and starts again at the first page', async () => {
    const queryClient = setup('SUPPORT', () => ({ data: [], meta: { total: 0, page: 1, pageSize: 25 } }));
    const user = userEvent.setup();
    const { router } = await renderPage('/support/queue', <QueuePage />, {
      at: '/support/queue?page=3',
      queryClient,
    });
    await user.click(screen.getByRole('combobox', { name: 'Wartet seit' }));
    await user.click(await screen.findByRole('option', { name: 'Länger als 24 Stunden' }));
    await waitFor(() => expect(router.state.location.search).toBe('?waitingHours=24'));
    expect(apiRequest).toHaveBeenLastCalledWith(
      supportAgentRoutes.agentQueue,
      expect.objectContaining({ query: expect.objectContaining({ waitingHours: 24, page: 1 }) }),
    );
    expect(await screen.findByText('Keine Anfrage passt zu diesen Filtern.')).toBeTruthy();
  });
});

describe('agent ticket page', { timeout: 20_000 }, () => {
  it('marks internal notes in words, and sends a reply with the chosen status', async () => {
    const queryClient = setup('SUPPORT_AGENT', (route) => {
      if (route === supportAgentRoutes.agentTicket || route === supportAgentRoutes.agentReply)
        return { data: detail() };
      throw new Error('unexpected request');
    });
    const user = userEvent.setup();
    await renderPage('/t', <AgentTicketPage ticketUuid={TICKET} />, { queryClient });
    const note = await screen.findByRole('listitem', {
      name: 'Interne Notiz von Aaron Agent, nur für den Support sichtbar',
    });
    expect(within(note).getByText('Interne Notiz – nur für den Support')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Nachricht von Adrian Admin (Kunde)' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Kundenkonto öffnen' }).getAttribute('href')).toBe(
      '/?uuid=c0000000-0000-4000-8000-000000000001',
    );

    await user.type(screen.getByRole('textbox', { name: 'Antwort' }), 'Wir prüfen das.');
    // The customer's limits, checked before anything is uploaded.
    const big = new File(['x'], 'gross.pdf');
    Object.defineProperty(big, 'size', { value: ATTACHMENT_MAX_BYTES + 1 });
    choose([big]);
    expect(await screen.findByText('«gross.pdf» ist grösser als 10 MB.')).toBeTruthy();
    choose([new File(['Grüe'], 'anleitung.txt')]);
    await screen.findByText('anleitung.txt');
    await user.click(screen.getByRole('button', { name: 'Antwort senden' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(supportAgentRoutes.agentReply, {
        params: { ticketUuid: TICKET },
        body: {
          body: 'Wir prüfen das.',
          status: 'WAITING_FOR_CUSTOMER',
          attachments: [{ fileName: 'anleitung.txt', content: 'R3LDvGU=' }],
        },
      }),
    );
    expect(screen.queryByText('anleitung.txt')).toBeNull();
  });

  it('lets SUPPORT write notes only, and shows no account link without consent', async () => {
    const queryClient = setup('SUPPORT', (route) =>
      route === supportAgentRoutes.agentTicket
        ? { data: detail({ staffAccessConsent: false }) }
        : { data: detail() },
    );
    const user = userEvent.setup();
    await renderPage('/t', <AgentTicketPage ticketUuid={TICKET} />, { queryClient });
    expect(await screen.findByRole('button', { name: 'Antwort an den Kunden' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.queryByRole('link', { name: 'Kundenkonto öffnen' })).toBeNull();
    expect(screen.getByText(/keinen Zugriff auf sein Konto erlaubt/)).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Status ändern' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    await user.type(screen.getByRole('textbox', { name: 'Interne Notiz' }), 'Kunde anrufen');
    await user.click(screen.getByRole('button', { name: 'Notiz speichern' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(supportAgentRoutes.agentNote, {
        params: { ticketUuid: TICKET },
        body: { body: 'Kunde anrufen', attachments: [] },
      }),
    );
  });
});

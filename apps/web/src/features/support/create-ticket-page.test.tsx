import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ATTACHMENT_MAX_BYTES, supportRoutes } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import CreateTicketPage from './create-ticket-page.tsx';
import TicketSuccessPage from './ticket-success-page.tsx';

mockApi();

beforeEach(() => {
  apiRequest.mockReset();
  setCurrentAccountUuid('a1');
});

function file(name: string, size = 4, content = 'text'): File {
  const made = new File([content], name);
  if (size !== content.length) Object.defineProperty(made, 'size', { value: size });
  return made;
}

function choose(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files } });
}

async function renderForm(accountRole: 'EMPLOYEE' | 'SUPPORT' = 'EMPLOYEE') {
  // The current account, as the guard leaves it: a member, no staff.
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: Infinity },
    mutations: { retry: false },
  });
  queryClient.setQueryData(queryKeys.myAccounts, [testAccount('a1', { accountRole })]);
  const rendered = await renderPage('/support/ticket', <CreateTicketPage />, {
    at: '/support/ticket?category=TECHNICAL',
    queryClient,
  });
  await screen.findByRole('heading', { level: 1, name: 'Anfrage erstellen' });
  return rendered;
}

async function fillTexts() {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: /^Betreff/ }), 'Export bricht ab');
  await user.type(screen.getByRole('textbox', { name: /^Beschreibung/ }), 'Nach 10 Sekunden.');
  return user;
}

describe('new ticket form', { timeout: 30_000 }, () => {
  it('refuses a wrong type, a file over 10 MB and a sixth file before anything is uploaded', async () => {
    await renderForm();
    choose([file('setup.exe')]);
    expect(
      await screen.findByText('«setup.exe» ist keine PDF-, PNG-, JPEG-, TXT- oder CSV-Datei.'),
    ).toBeTruthy();
    choose([file('gross.pdf', ATTACHMENT_MAX_BYTES + 1)]);
    expect(await screen.findByText('«gross.pdf» ist grösser als 10 MB.')).toBeTruthy();
    choose([1, 2, 3, 4, 5, 6].map((n) => file(`n${n}.txt`)));
    expect(await screen.findByText('Höchstens 5 Dateien pro Nachricht.')).toBeTruthy();
    const chosen = screen.getByRole('list', { name: 'Ausgewählte Dateien' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Dateien auswählen' })).toHaveProperty('disabled', true);
    expect(apiRequest).not.toHaveBeenCalled();
  });

  it('sends the ticket with its files and an Idempotency-Key, then shows its number', async () => {
    apiRequest.mockResolvedValue({ data: { ticket: { uuid: 't1', number: 10042 }, messages: [] } });
    const { router } = await renderForm();
    const user = await fillTexts();
    choose([file('notiz.txt', 4, 'Grüe')]);
    await screen.findByText('notiz.txt');
    await user.click(screen.getByRole('checkbox', { name: /Support-Mitarbeitende dürfen/ }));
    await user.click(screen.getByRole('button', { name: 'Anfrage senden' }));
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveProperty('textContent', '/support/ticket/success'),
    );
    expect(router.state.location.state).toEqual({ ticketNumber: 10042, ticketUuid: 't1' });
    const [route, input] = apiRequest.mock.calls[0]!;
    expect(route).toBe(supportRoutes.createTicket);
    expect(input.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(input.body).toMatchObject({
      category: 'TECHNICAL',
      severity: 'NORMAL',
      subject: 'Export bricht ab',
      staffAccessConsent: true,
      attachments: [{ fileName: 'notiz.txt' }],
    });
    expect(atob(input.body.attachments[0].content)).toBe(
      String.fromCharCode(...new TextEncoder().encode('Grüe')),
    );
  });

  it("shows the server's verdict on a file's content under the files, naming the file", async () => {
    apiRequest.mockRejectedValue(
      new ApiError(422, 'Invalid', 'VALIDATION_FAILED', { 'attachments.0': 'attachmentType' }),
    );
    await renderForm();
    const user = await fillTexts();
    choose([file('bild.png')]);
    await screen.findByText('bild.png');
    await user.click(screen.getByRole('button', { name: 'Anfrage senden' }));
    expect(
      await screen.findByText('«bild.png» ist keine PDF-, PNG-, JPEG-, TXT- oder CSV-Datei.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('where')).toBeNull();
  });
});

describe('staff on a customer account', { timeout: 30_000 }, () => {
  it("may not send a ticket in the customer's name: a note, and no way to send", async () => {
    await renderForm('SUPPORT');
    expect(screen.getByText(/Sie sehen dieses Konto als Support/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Anfrage senden' })).toHaveProperty('disabled', true);
  });
});

describe('ticket confirmation', () => {
  it('shows a general confirmation on a direct visit', async () => {
    await renderPage('/support/ticket/success', <TicketSuccessPage />);
    expect(await screen.findByRole('heading', { name: 'Vielen Dank für Ihre Anfrage.' })).toBeTruthy();
    expect(screen.queryByTestId('ticket-number')).toBeNull();
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { membersRoutes, type AccountRole, type Member } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import MemberFormPage from './member-form-page.tsx';
import UserManagementPage from './user-management-page.tsx';

mockApi();

const ACCOUNT = '6f1c2b1e-0002-4000-8000-000000000001';

function member(extra: Partial<Member>): Member {
  return {
    id: crypto.randomUUID(),
    kind: 'MEMBER',
    name: 'Emma Employee',
    email: 'employee@example.com',
    role: 'EMPLOYEE',
    status: 'ACCEPTED',
    invitedBy: 'Olivia Owner',
    invitedAt: '2026-01-01T10:00:00.000Z',
    expiresAt: null,
    lastSignInAt: null,
    isSelf: false,
    hasTwoFactor: false,
    ...extra,
  };
}

const ROWS = [
  member({
    name: 'Adrian Admin',
    email: 'admin@example.com',
    role: 'ADMIN',
    isSelf: true,
    hasTwoFactor: true,
  }),
  member({}),
  member({
    kind: 'INVITATION',
    name: '',
    email: 'lea@example.com',
    status: 'PENDING',
    expiresAt: '2026-11-29T10:00:00.000Z',
  }),
  member({
    name: 'Olivia Owner',
    email: 'owner@example.com',
    role: 'OWNER',
    invitedBy: null,
    hasTwoFactor: null,
  }),
];

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
  setCurrentAccountUuid(ACCOUNT);
});

async function renderAt(path: string, at: string, element: React.ReactElement, role: AccountRole = 'ADMIN') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  queryClient.setQueryData(queryKeys.myAccounts, [testAccount(ACCOUNT, { accountRole: role })]);
  return renderPage(
    path,
    <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
      <ConfirmProvider>{element}</ConfirmProvider>
    </PortalThemeProvider>,
    {
      at,
      queryClient,
    },
  );
}

/** Answers the list for each section: the rows for members, none for coaches. */
function answerLists(rows = ROWS, total = rows.length) {
  apiRequest.mockImplementation(async (route, input: { query?: { section?: string } }) => {
    if (route !== membersRoutes.listMembers) throw new Error('unexpected call');
    const coaches = input.query?.section === 'coaches';
    return { data: coaches ? [] : rows, meta: { total: coaches ? 0 : total, page: 1, pageSize: 25 } };
  });
}

// Two MUI tables and a form in jsdom: slower than the default 5 s when the machine is busy.
describe('members page', { timeout: 20_000 }, () => {
  it('shows members and invitations from the server, with actions only where the rules allow them', async () => {
    answerLists();
    await renderAt('/settings/user-management', '/settings/user-management', <UserManagementPage />);
    const table = await screen.findByRole('table', { name: 'Mitglieder und Einladungen' });
    const row = (text: string) => within(table).getByRole('row', { name: new RegExp(`^${text}`) });
    await waitFor(() => expect(row('Noch nicht beigetreten')).toBeTruthy());
    expect(row('Noch nicht beigetreten').textContent).toContain('Noch nicht beigetreten');
    expect(row('Noch nicht beigetreten').textContent).toContain('lea@example.com');
    expect(row('Adrian Admin').textContent).toContain('(Sie)');
    // The 2FA column: on, off, unknown (the identity provider keeps it) and nothing for an invitation.
    expect(within(table).getByRole('columnheader', { name: '2FA' })).toBeTruthy();
    expect(within(row('Adrian Admin')).getByText('Ein')).toBeTruthy();
    expect(within(row('Emma Employee')).getByText('Aus')).toBeTruthy();
    expect(within(row('Olivia Owner')).getByLabelText('Unbekannt')).toBeTruthy();
    expect(within(row('Olivia Owner')).queryByRole('button')).toBeNull();
    expect(within(row('Adrian Admin')).queryByRole('button')).toBeNull();
    expect(
      within(row('Emma Employee')).getByRole('button', { name: 'Aktionen für Emma Employee' }),
    ).toBeTruthy();
    expect(
      await screen.findByText(
        'Noch kein Digital Coach. Laden Sie Ihre Treuhänderin oder Ihren Treuhänder ein.',
      ),
    ).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(membersRoutes.listMembers, {
      accountUuid: ACCOUNT,
      query: { section: 'members', page: 1, pageSize: 25 },
      signal: expect.anything(),
    });
    expect(screen.getAllByText('Zeilen pro Seite').length).toBeGreaterThan(0);
  });

  it('shows staff in a customer account the members without a way to invite, change or remove', async () => {
    answerLists();
    await renderAt(
      '/settings/user-management',
      '/settings/user-management',
      <UserManagementPage />,
      'SUPPORT',
    );
    const table = await screen.findByRole('table', { name: 'Mitglieder und Einladungen' });
    await waitFor(() => expect(within(table).getByText('Emma Employee')).toBeTruthy());
    expect(within(table).queryByRole('button', { name: /^Aktionen für/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Mitglieder einladen' })).toBeNull();
  });

  it('works its row menu by keyboard: Enter opens it on its first item, Escape closes it and the confirmation and gives the focus back to ⋮', async () => {
    const user = userEvent.setup();
    answerLists();
    await renderAt('/settings/user-management', '/settings/user-management', <UserManagementPage />);
    const menuButton = await screen.findByRole('button', { name: 'Aktionen für Emma Employee' });
    menuButton.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Rolle ändern' })),
    );
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Entfernen' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(menuButton);

    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Rolle ändern' })),
    );
    await user.keyboard('{ArrowDown}{Enter}');
    await screen.findByRole('dialog', { name: 'Mitglied entfernen?' }, { timeout: 10_000 });
    // A destructive confirmation starts on cancel: Enter at once removes no one.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Abbrechen' })),
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(menuButton);
    expect(apiRequest).not.toHaveBeenCalledWith(membersRoutes.removeMember, expect.anything());
  });

  it('searches on the server once typing pauses, from the first page', async () => {
    const user = userEvent.setup();
    answerLists();
    await renderAt('/settings/user-management', '/settings/user-management', <UserManagementPage />);
    await screen.findByRole('table', { name: 'Mitglieder und Einladungen' });
    const [search] = screen.getAllByRole('searchbox', { name: 'Name oder E-Mail suchen' });
    await user.type(search!, 'emma');
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(membersRoutes.listMembers, {
        accountUuid: ACCOUNT,
        query: { section: 'members', page: 1, pageSize: 25, search: 'emma' },
        signal: expect.anything(),
      }),
    );
    // One request for the finished word, not one per letter.
    const searches = apiRequest.mock.calls.filter(([, input]) => input.query?.search);
    expect(searches).toHaveLength(1);
  });
});

describe('members paging in the address', { timeout: 20_000 }, () => {
  it("reads each section's page from the address and writes the next one there", async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 10 }, (_, index) =>
      member({ id: `m${index}`, name: `Person ${index}`, email: `p${index}@example.com` }),
    );
    answerLists(many, 35);
    const { router } = await renderAt(
      '/settings/user-management',
      '/settings/user-management?page=2&pageSize=10&coaches.page=3',
      <UserManagementPage />,
    );
    await screen.findByRole('table', { name: 'Mitglieder und Einladungen' });
    const sections = apiRequest.mock.calls.map(([, input]) => input.query);
    expect(sections).toContainEqual({ section: 'members', page: 2, pageSize: 10 });
    expect(sections).toContainEqual({ section: 'coaches', page: 3, pageSize: 25 });
    await user.click(screen.getAllByRole('button', { name: 'Zur nächsten Seite' })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe('?page=3&pageSize=10&coaches.page=3'));
    expect(apiRequest.mock.calls.map(([, input]) => input.query)).toContainEqual({
      section: 'members',
      page: 3,
      pageSize: 10,
    });
  });
});

describe('invite form', { timeout: 20_000 }, () => {
  it('turns comma-separated addresses into chips and sends them with the role', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue({
      data: [member({}), member({})],
      meta: { total: 2, page: 1, pageSize: 2 },
    });
    await renderAt(
      '/settings/user-management/user/:uuid?',
      '/settings/user-management/user',
      <MemberFormPage />,
    );
    const emails = screen.getByRole('combobox', { name: /E-Mail-Adressen/ });
    await user.type(emails, 'anna@example.org, bert@example.org,');
    expect(screen.getByRole('button', { name: 'anna@example.org' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'bert@example.org' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Einladung senden' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(membersRoutes.invite, {
        accountUuid: ACCOUNT,
        body: { emails: ['anna@example.org', 'bert@example.org'], role: 'EMPLOYEE' },
      }),
    );
    await waitFor(() => expect(shownToasts('success')).toEqual(['2 Einladungen wurden gesendet.']));
  });

  it('names each address the server refuses, and refuses a malformed one before sending', async () => {
    const user = userEvent.setup();
    apiRequest.mockRejectedValue(
      new ApiError(409, 'employee@example.com is already a member', 'CONFLICT', {
        'emails.1': 'alreadyMember',
      }),
    );
    await renderAt(
      '/settings/user-management/user/:uuid?',
      '/settings/user-management/user',
      <MemberFormPage />,
    );
    const emails = screen.getByRole('combobox', { name: /E-Mail-Adressen/ });
    await user.type(emails, 'kein-mail,');
    await user.click(screen.getByRole('button', { name: 'Einladung senden' }));
    expect(await screen.findByText('Keine gültige E-Mail-Adresse: kein-mail')).toBeTruthy();
    expect(apiRequest).not.toHaveBeenCalled();

    await user.click(within(screen.getByRole('button', { name: 'kein-mail' })).getByTestId('CancelIcon'));
    await user.type(emails, 'anna@example.org, employee@example.com,');
    await user.click(screen.getByRole('button', { name: 'Einladung senden' }));
    expect(await screen.findByText('employee@example.com ist bereits Mitglied.')).toBeTruthy();
    await waitFor(() =>
      expect(shownToasts('error')).toEqual([
        '1 Feld ist nicht korrekt',
        '1 Adresse kann nicht eingeladen werden. Niemand wurde eingeladen.',
      ]),
    );
  });
});

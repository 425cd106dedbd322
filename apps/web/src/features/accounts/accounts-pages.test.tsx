import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { usersRoutes, type Account, type User, type UserRole } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import type * as SessionModule from '@/api/session.ts';
import { ApiError } from '@/api/errors.ts';
import { messageFiles } from '@/testing/i18n.ts';
import { renderPage } from '@/testing/render.tsx';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import AccountsPage from './accounts-page.tsx';
import VerifyInvitePage from './verify-invite-page.tsx';

mockApi();
let accounts: Account[] = [];
let userRole: UserRole = 'STANDARD';
let emailVerified = true;
const switchAccount = vi.fn();
const invalidateSession = vi.fn(async () => {});
vi.mock('@/api/session.ts', async (original) => ({
  accountQuery: (await original<typeof SessionModule>()).accountQuery,
  useMe: (): User => testUser({ email: 'someone@example.com', name: 'Someone', userRole, emailVerified }),
  useMyAccounts: () => accounts,
  useCurrentAccount: () => accounts.find((a) => a.name === 'Muster AG') ?? null,
  switchAccount: (uuid: string) => switchAccount(uuid),
  useInvalidateSession: () => invalidateSession,
}));
let confirmAnswer = true;
const confirm = vi.fn(async () => confirmAnswer);
vi.mock('@/ui/confirm.tsx', () => ({ useConfirm: () => confirm }));
const VERIFY_URL = '/realms/portal/protocol/openid-connect/auth?kc_action=VERIFY_EMAIL&kc_locale=de';
vi.mock('@/auth/auth.ts', () => ({
  verifyEmailUrl: async () => VERIFY_URL,
  rememberCurrentPage: () => {},
  signInAs: async () => {},
}));

const account = (name: string, patch: Partial<Account>): Account =>
  testAccount(`00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`, { name, ...patch });

beforeEach(() => {
  accounts = [
    account('Muster AG', { accountRole: 'OWNER', isOwner: true }),
    account('Beispiel GmbH', { country: 'DE', availableUntil: '2026-12-12T10:00:00.000Z' }),
    account('Neu Sàrl', { invitationStatus: 'PENDING', accountRole: 'ADMIN' }),
  ];
  userRole = 'STANDARD';
  emailVerified = true;
  apiRequest.mockReset();
  switchAccount.mockReset();
  confirm.mockClear();
  watchToasts();
});

describe('accounts page', () => {
  it('lists every account with role, country and status, and switches to another one', async () => {
    const user = userEvent.setup();
    await renderPage('/accounts', <AccountsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Konten' })).toBeTruthy();
    expect(screen.getByText('Ihre Rolle: Inhaber · Schweiz')).toBeTruthy();
    expect(screen.getByText('Ihre Rolle: Mitarbeiter · Deutschland')).toBeTruthy();
    expect(screen.getByText('Aktuelles Konto')).toBeTruthy();
    expect(screen.getByText('Wird nach dem 12. Dezember 2026 gelöscht')).toBeTruthy();
    expect(screen.getByText('Einladung offen')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Einladung beantworten' }).getAttribute('href')).toBe(
      '/invite/verify',
    );
    expect(screen.getByRole('link', { name: 'Konto erstellen' }).getAttribute('href')).toBe(
      '/accounts/account',
    );
    // Only accepted, non-current accounts can be switched to.
    expect(screen.getAllByRole('button', { name: /wechseln/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Zu Beispiel GmbH wechseln' }));
    expect(switchAccount).toHaveBeenCalledWith(accounts[1]?.uuid);
    // Only staff open accounts by ID.
    expect(screen.queryByRole('form', { name: 'Konto per ID öffnen' })).toBeNull();
  });
});

describe('accounts page for staff', () => {
  // The account an ID names, as GET /api/accounts/{id} answers for staff.
  beforeEach(() => {
    apiRequest.mockImplementation(async (_route: unknown, { params }: { params: { id: string } }) => ({
      data: testAccount(params.id, { accountRole: 'SUPPORT' }),
    }));
  });

  it.each(['SUPPORT', 'SUPPORT_AGENT', 'SUPPORT_MANAGER', 'PORTAL_ADMIN'] as const)(
    '%s opens an account by its ID through the guard (/?uuid=)',
    async (role) => {
      userRole = role;
      accounts = [];
      const user = userEvent.setup();
      const { router } = await renderPage('/accounts', <AccountsPage />);
      const form = screen.getByRole('form', { name: 'Konto per ID öffnen' });
      expect(screen.getByRole('heading', { level: 2, name: 'Konto per ID öffnen' })).toBeTruthy();
      expect(screen.getByText(/Kundenkonten öffnen Sie mit ihrer ID\./)).toBeTruthy();
      const field = within(form).getByRole('textbox', { name: 'Konto-ID' });
      expect((field as HTMLInputElement).required).toBe(true);

      await user.type(field, ' 6F1C2B1E-0002-4000-8000-000000000002 ');
      await user.click(within(form).getByRole('button', { name: 'Konto öffnen' }));
      await waitFor(() =>
        expect(router.state.location.search).toBe('?uuid=6f1c2b1e-0002-4000-8000-000000000002'),
      );
      expect(router.state.location.pathname).toBe('/');
    },
  );

  it('checks the ID with the form rules: required, then a UUID, on blur and on submit', async () => {
    userRole = 'SUPPORT_AGENT';
    const user = userEvent.setup();
    const { router } = await renderPage('/accounts', <AccountsPage />);
    const field = screen.getByRole('textbox', { name: 'Konto-ID' });
    const submit = screen.getByRole('button', { name: 'Konto öffnen' });

    await user.click(submit);
    expect(await screen.findByText('Dieses Feld ist erforderlich')).toBeTruthy();
    expect(shownToasts('error')).toContain('1 Feld ist nicht korrekt');
    expect(field.getAttribute('aria-invalid')).toBe('true');

    // A name is no ID; a field showing an error is checked again on each change.
    await user.type(field, 'Muster AG');
    await user.tab();
    expect(await screen.findByText('Bitte geben Sie eine gültige Konto-ID ein.')).toBeTruthy();
    expect(field.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Bitte geben Sie eine gültige Konto-ID ein.',
    );
    await user.click(submit);
    expect(router.state.location.pathname).toBe('/accounts');

    await user.clear(field);
    await user.type(field, '6f1c2b1e-0002-4000-8000-000000000003');
    await waitFor(() => expect(screen.queryByText('Bitte geben Sie eine gültige Konto-ID ein.')).toBeNull());
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(router.state.location.search).toBe('?uuid=6f1c2b1e-0002-4000-8000-000000000003'),
    );
  });

  it('says on the field when no account has the ID, and stays on the page', async () => {
    userRole = 'SUPPORT_AGENT';
    apiRequest.mockRejectedValue(new ApiError(404, 'Account not found', 'NOT_FOUND'));
    const user = userEvent.setup();
    const { router } = await renderPage('/accounts', <AccountsPage />);
    const field = screen.getByRole('textbox', { name: 'Konto-ID' });
    await user.type(field, '6f1c2b1e-0002-4000-8000-00000000ffff{Enter}');
    expect(
      await screen.findByText(
        'Dieses Konto können Sie nicht öffnen: Es gibt kein Konto mit dieser ID, oder der Kunde erlaubt den Zugriff in keiner offenen Anfrage.',
      ),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(router.state.location.pathname).toBe('/accounts');
    expect(apiRequest).toHaveBeenCalledWith(
      expect.objectContaining({ path: expect.stringContaining('accounts') }),
      expect.objectContaining({ params: { id: '6f1c2b1e-0002-4000-8000-00000000ffff' } }),
    );
  });

  it('says which account the guard could not open (?notOpened=), with the ID in the field', async () => {
    userRole = 'SUPPORT_AGENT';
    const id = '6f1c2b1e-0002-4000-8000-00000000ffff';
    await renderPage('/accounts', <AccountsPage />, { at: `/accounts?notOpened=${id}` });
    const field = screen.getByRole('textbox', { name: 'Konto-ID' });
    expect((field as HTMLInputElement).value).toBe(id);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toContain(
      'Dieses Konto können Sie nicht öffnen',
    );
  });

  it('speaks English, French and Italian too', async () => {
    userRole = 'SUPPORT';
    for (const [lng, title, label] of [
      ['en', 'Open an account by ID', 'Account ID'],
      ['fr', 'Ouvrir un compte par son ID', 'ID du compte'],
      ['it', 'Apri un account tramite ID', 'ID dell’account'],
    ] as const) {
      const { unmount } = await renderPage('/accounts', <AccountsPage />, { lng });
      const form = screen.getByRole('form', { name: title });
      expect(within(form).getByRole('textbox', { name: label })).toBeTruthy();
      unmount();
    }
  });
});

describe('verify-invite page', () => {
  it('accepts an invitation and opens the account', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue({ data: { ...accounts[2], invitationStatus: 'ACCEPTED' } });
    const { router } = await renderPage('/invite/verify', <VerifyInvitePage />);
    expect(screen.getByText('Eingeladen als Administrator')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Einladung zu Neu Sàrl annehmen' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?uuid=${accounts[2]?.uuid}`));
    expect(apiRequest).toHaveBeenCalledWith(usersRoutes.acceptInvitation, {
      params: { id: accounts[2]?.uuid },
    });
    expect(shownToasts('success')).toContain('Sie sind jetzt Mitglied von Neu Sàrl.');
  });

  it('declines only after confirmation', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue(undefined);
    await renderPage('/invite/verify', <VerifyInvitePage />);
    confirmAnswer = false;
    await user.click(screen.getByRole('button', { name: 'Einladung zu Neu Sàrl ablehnen' }));
    expect(confirm).toHaveBeenCalledWith(
      expect.objectContaining({ destructive: true, title: 'Einladung ablehnen?' }),
    );
    expect(apiRequest).not.toHaveBeenCalled();
    confirmAnswer = true;
    await user.click(screen.getByRole('button', { name: 'Einladung zu Neu Sàrl ablehnen' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(usersRoutes.declineInvitation, {
        params: { id: accounts[2]?.uuid },
      }),
    );
    expect(invalidateSession).toHaveBeenCalled();
  });

  it('says so when nothing is pending', async () => {
    accounts = [];
    await renderPage('/invite/verify', <VerifyInvitePage />);
    // The page's heading is its route title (the document title and the navigation say the same).
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      (messageFiles.de.routes as Record<string, string>).inviteVerify,
    );
    expect(screen.getByText('Sie haben keine offenen Einladungen.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Eigenes Konto erstellen' }).getAttribute('href')).toBe(
      '/onboarding',
    );
  });

  describe('an address that is not verified (decision 193)', () => {
    const link = {
      accountUuid: '00000000-0000-4000-8000-000000000008',
      accountName: 'Neu Sàrl',
      role: 'ADMIN',
      email: 'someone@example.com',
      invitedBy: 'Olivia Owner',
      status: 'PENDING',
      expiresAt: '2026-12-01T10:00:00.000Z',
      forYou: true,
      language: 'de',
    };

    it('asks to verify it first and offers the verification mail instead of the answers', async () => {
      emailVerified = false;
      apiRequest.mockResolvedValue({ data: link });
      await renderPage('/invite/verify', <VerifyInvitePage />, {
        at: '/invite/verify?token=tok-1234567890abcdef',
      });
      expect(
        await screen.findByText(
          'Ihre Adresse someone@example.com ist noch nicht bestätigt. Bestätigen Sie sie, um diese Einladung anzunehmen: Wir senden Ihnen eine E-Mail mit einem Link, der Sie hierher zurückführt.',
        ),
      ).toBeTruthy();
      const verify = await screen.findByRole('link', { name: 'Bestätigungs-E-Mail senden' });
      await waitFor(() => expect(verify.getAttribute('href')).toBe(VERIFY_URL));
      expect(screen.queryByRole('button', { name: 'Einladung zu Neu Sàrl annehmen' })).toBeNull();
    });

    it('explains the server’s refusal the same way', async () => {
      const user = userEvent.setup();
      apiRequest.mockImplementation(async (route: { path: string }) => {
        if (route.path.endsWith('/accept')) {
          throw new ApiError(403, 'Verify your email address first', 'EMAIL_NOT_VERIFIED');
        }
        return { data: link };
      });
      await renderPage('/invite/verify', <VerifyInvitePage />, {
        at: '/invite/verify?token=tok-1234567890abcdef',
      });
      await user.click(await screen.findByRole('button', { name: 'Einladung zu Neu Sàrl annehmen' }));
      expect(await screen.findByRole('link', { name: 'Bestätigungs-E-Mail senden' })).toBeTruthy();
    });

    it('says in the list that invitations show once the address is verified', async () => {
      emailVerified = false;
      accounts = [];
      await renderPage('/invite/verify', <VerifyInvitePage />);
      expect(
        screen.getByText('Einladungen an Ihre Adresse erscheinen hier, sobald Sie sie bestätigt haben.'),
      ).toBeTruthy();
    });

    it('explains the refusal on the account path in the user’s language', async () => {
      const user = userEvent.setup();
      apiRequest.mockRejectedValue(
        new ApiError(403, 'Verify your email address first', 'EMAIL_NOT_VERIFIED'),
      );
      await renderPage('/invite/verify', <VerifyInvitePage />);
      await user.click(screen.getByRole('button', { name: 'Einladung zu Neu Sàrl annehmen' }));
      await waitFor(() =>
        expect(shownToasts('error')).toContain(
          'Bestätigen Sie zuerst Ihre E-Mail-Adresse; danach können Sie die Einladung beantworten.',
        ),
      );
    });
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import {
  NOTIFICATION_TYPES,
  notificationsRoutes,
  usersRoutes,
  type Account,
  type User,
} from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { notificationKeys } from '@/api/notifications.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { toast } from '@/ui/toast-store.ts';
import UserSettingsPage from './user-settings-page.tsx';

mockApi();

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

/** The profile page with the signed-in user and their accounts in the cache, as the navigation guard leaves them. */
async function renderProfile(me: User = testUser(), accounts: Account[] = [], current: string | null = null) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  queryClient.setQueryData(queryKeys.me, me);
  queryClient.setQueryData(queryKeys.myAccounts, accounts);
  queryClient.setQueryData(
    notificationKeys.preferences,
    NOTIFICATION_TYPES.map((type) => ({ type, email: type === 'ticket.answered' })),
  );
  setCurrentAccountUuid(current);
  const rendered = await renderPage(
    '/settings/users',
    <PortalThemeProvider language="de" rowsPerPage="">
      <ConfirmProvider>
        <UserSettingsPage />
      </ConfirmProvider>
    </PortalThemeProvider>,
    { queryClient },
  );
  return { ...rendered, queryClient };
}

const nameField = () => screen.getByRole('textbox', { name: /^Name/ });
const save = () => screen.getByRole('button', { name: 'Speichern' });

describe('profile page', () => {
  it('saves the name as the server answers it: field, cached user and a success message', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue({ data: testUser({ name: 'Olivia Neu' }) });
    const { queryClient } = await renderProfile();
    expect(save()).toHaveProperty('disabled', true);
    await user.clear(nameField());
    await user.type(nameField(), '  Olivia Neu ');
    await user.click(save());
    await waitFor(() => expect(shownToasts('success')).toEqual(['Ihr Profil wurde gespeichert.']));
    expect(apiRequest).toHaveBeenCalledWith(usersRoutes.updateMe, { body: { name: 'Olivia Neu' } });
    expect(queryClient.getQueryData<User>(queryKeys.me)?.name).toBe('Olivia Neu');
    expect(nameField()).toHaveProperty('value', 'Olivia Neu');
    expect(save()).toHaveProperty('disabled', true);
  });

  it('shows the e-mail address read-only: the sign-in service owns it', async () => {
    await renderProfile(testUser({ email: 'olivia@example.com' }));
    const email = screen.getByRole('textbox', { name: 'E-Mail-Adresse' });
    expect(email).toHaveProperty('value', 'olivia@example.com');
    expect(email).toHaveProperty('readOnly', true);
  });

  it('refuses more than 120 characters on the field, and puts a server field error there', async () => {
    const user = userEvent.setup();
    await renderProfile();
    await user.clear(nameField());
    await user.click(nameField());
    await user.paste('x'.repeat(121));
    await user.click(save());
    expect(await screen.findByText('Sie dürfen maximal 120 Zeichen eingeben')).toBeTruthy();
    expect(apiRequest).not.toHaveBeenCalled();

    apiRequest.mockRejectedValue(new ApiError(422, 'Invalid', 'VALIDATION_FAILED', { name: 'is required' }));
    await user.clear(nameField());
    await user.type(nameField(), 'Olivia');
    await user.click(save());
    await waitFor(() => expect(nameField().getAttribute('aria-invalid')).toBe('true'));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('lets a member leave the current account after confirming, then goes on to the accounts list', async () => {
    const user = userEvent.setup();
    const account = testAccount('a1', { name: 'Muster AG' });
    // After leaving, the refetched list has no account left.
    apiRequest.mockImplementation(async (route) =>
      route === usersRoutes.listMyAccounts ? { data: [] } : undefined,
    );
    await renderProfile(testUser(), [account], 'a1');
    await user.click(screen.getByRole('button', { name: 'Konto verlassen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Muster AG verlassen?' });
    expect(apiRequest).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Verlassen' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/accounts'));
    expect(apiRequest).toHaveBeenCalledWith(usersRoutes.leaveAccount, { params: { id: 'a1' } });
    expect(shownToasts('success')).toEqual(['Sie haben Muster AG verlassen.']);
  });

  it('shows the owner the way to transfer the ownership instead of a leave button', async () => {
    const owned = testAccount('a1', { name: 'Muster AG', accountRole: 'OWNER', isOwner: true });
    await renderProfile(testUser(), [owned], 'a1');
    expect(screen.getByText(/Als Inhaber können Sie Muster AG nicht verlassen/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Inhaberschaft übertragen' }).getAttribute('href')).toBe(
      '/settings/ownership/transfer',
    );
    expect(screen.queryByRole('button', { name: 'Konto verlassen' })).toBeNull();
  });

  it('switches the email of one notification type and shows what the server stored', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue({
      data: {
        preferences: NOTIFICATION_TYPES.map((type) => ({
          type,
          email: type === 'ticket.answered' || type === 'member.removed',
        })),
      },
    });
    await renderProfile();
    const removed = screen.getByRole('switch', { name: 'Aus Konto entfernt: Auch per E-Mail' });
    expect(removed).toHaveProperty('checked', false);
    await user.click(removed);
    expect(apiRequest).toHaveBeenCalledWith(notificationsRoutes.updateNotificationPreferences, {
      body: { preferences: [{ type: 'member.removed', email: true }] },
    });
    await waitFor(() => expect(removed).toHaveProperty('checked', true));
    expect(shownToasts('success')).toEqual(['Ihre Einstellung wurde gespeichert.']);
  });

  it('offers no leaving without a current account', async () => {
    await renderProfile(testUser(), [testAccount('a1')], null);
    expect(screen.queryByRole('heading', { name: 'Konto verlassen' })).toBeNull();
  });
});

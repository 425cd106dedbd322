import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { securityRoutes, type Passkey } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PasskeysCard } from './passkeys-card.tsx';

mockApi();

const browser = { supported: true, startRegistration: vi.fn() };
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: () => browser.supported,
  startRegistration: (...args: unknown[]) => browser.startRegistration(...args) as unknown,
}));

const PASSKEY: Passkey = {
  id: '6f1c2b1e-0009-4000-8000-000000000001',
  name: 'Laptop',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  backedUp: false,
};

beforeEach(() => {
  apiRequest.mockReset();
  browser.supported = true;
  browser.startRegistration.mockReset();
  watchToasts();
  apiRequest.mockImplementation((route: unknown) => {
    if (route === securityRoutes.listPasskeys) {
      return Promise.resolve({ data: [PASSKEY], meta: { total: 1, page: 1, pageSize: 1 } });
    }
    if (route === securityRoutes.passkeyRegistrationOptions) {
      return Promise.resolve({ data: { challenge: 'abc', rp: { id: 'localhost', name: 'Portal' } } });
    }
    return Promise.reject(new Error(`unexpected ${String(route)}`));
  });
});

const renderCard = () =>
  renderPage(
    '/settings/users',
    <ConfirmProvider>
      <PasskeysCard />
    </ConfirmProvider>,
  );

describe('passkeys card', () => {
  it('lists the passkeys and proposes the next free default name', async () => {
    await renderCard();
    expect(await screen.findByText('Laptop')).toBeTruthy();
    expect(screen.getByText(/Hinzugefügt am 20\. November 2026 · noch nie verwendet/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Passkey hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Passkey hinzufügen' });
    expect((within(dialog).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).value).toBe(
      'Passkey 2',
    );
  });

  it('closes the dialog with Escape and gives the focus back to the button that opened it', async () => {
    await renderCard();
    const open = await screen.findByRole('button', { name: 'Passkey hinzufügen' });
    await userEvent.click(open);
    expect(screen.getByRole('dialog', { name: 'Passkey hinzufügen' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(open);
  });

  it('takes a cancelled browser prompt quietly: an info in the dialog, no error toast', async () => {
    browser.startRegistration.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    await renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Passkey hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Passkey hinzufügen' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Weiter' }));
    expect((await within(dialog).findByRole('status')).textContent).toContain(
      'Der Vorgang wurde abgebrochen. Sie können es erneut versuchen.',
    );
    expect(shownToasts('error')).toEqual([]);
    expect(apiRequest).not.toHaveBeenCalledWith(securityRoutes.registerPasskey, expect.anything());
  });

  it('offers no way to add one where the browser lacks WebAuthn, and says why', async () => {
    browser.supported = false;
    await renderCard();
    expect(await screen.findByText(/Dieser Browser unterstützt keine Passkeys\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Passkey hinzufügen' })).toBeNull();
  });
});

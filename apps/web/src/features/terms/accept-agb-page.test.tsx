import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import type * as SessionModule from '@/api/session.ts';
import { accountsRoutes, TERMS_VERSION, type Account } from '@portal/contract';
import { renderPage } from '@/testing/render.tsx';
import { testAccount } from '@/testing/fixtures.ts';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import AcceptAgbPage, { safeRedirect } from './accept-agb-page.tsx';

mockApi();
let current: Account | null = null;
const accountChanged = vi.fn(async () => {});
vi.mock('@/api/session.ts', async (original) => ({
  ...(await original<typeof SessionModule>()),
  useCurrentAccount: () => current,
  useAccountChanged: () => accountChanged,
}));

const account = testAccount('6f1c1d0e-7d59-4e37-a1a4-4f8a2f0d2b21', {
  name: 'Neu Sàrl',
  preferredLanguage: 'fr',
  accountRole: 'OWNER',
  isOwner: true,
  acceptedAgb: false,
  acceptedPrivacyPolicy: false,
  createdAt: '2026-11-01T08:00:00.000Z',
});

beforeEach(() => {
  current = { ...account };
  apiRequest.mockReset();
  accountChanged.mockClear();
  watchToasts();
});

const agb = () => screen.getByRole('checkbox', { name: /Allgemeinen Geschäftsbedingungen/ });
const privacy = () => screen.getByRole('checkbox', { name: /Datenschutzerklärung/ });
const submit = () => screen.getByRole('button', { name: 'Akzeptieren und weiter' });

describe('accept-agb page', () => {
  it('needs both boxes: each unticked box shows the required message, and nothing is sent', async () => {
    const user = userEvent.setup();
    await renderPage('/accept-agb', <AcceptAgbPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'AGB und Datenschutz akzeptieren' })).toBeTruthy();
    expect(screen.getByText(/Neu Sàrl/)).toBeTruthy();
    await user.click(submit());
    await waitFor(() => expect(shownToasts('error')).toContain('2 Felder sind nicht korrekt'));
    expect(screen.getAllByText('Dieses Feld ist erforderlich')).toHaveLength(2);
    expect(agb().getAttribute('aria-invalid')).toBe('true');

    await user.click(agb());
    expect(screen.getAllByText('Dieses Feld ist erforderlich')).toHaveLength(1);
    await user.click(submit());
    await waitFor(() => expect(shownToasts('error').at(-1)).toBe('1 Feld ist nicht korrekt'));
    expect(apiRequest).not.toHaveBeenCalled();
  });

  it('accepts both and continues to the requested route', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue({ data: { ...account, acceptedAgb: true, acceptedPrivacyPolicy: true } });
    const { router } = await renderPage('/accept-agb', <AcceptAgbPage />, {
      at: `/accept-agb?redirect=${encodeURIComponent('/billing?page=2')}`,
    });
    await user.click(agb());
    await user.click(privacy());
    await user.click(submit());
    await waitFor(() => expect(router.state.location.pathname).toBe('/billing'));
    expect(router.state.location.search).toBe('?page=2');
    expect(apiRequest).toHaveBeenCalledWith(accountsRoutes.updateAccount, {
      params: { id: account.uuid },
      body: { acceptedAgb: true, acceptedPrivacyPolicy: true },
    });
    expect(accountChanged).toHaveBeenCalledWith({
      ...account,
      acceptedAgb: true,
      acceptedPrivacyPolicy: true,
    });
    expect(shownToasts('success')).toContain('Vielen Dank. Die Bedingungen sind akzeptiert.');
  });

  it('opens the texts in a dialog without ticking the box', async () => {
    const user = userEvent.setup();
    await renderPage('/accept-agb', <AcceptAgbPage />, { lng: 'en' });
    await user.click(screen.getByRole('button', { name: 'privacy policy' }));
    const dialog = await screen.findByRole('dialog', { name: /Privacy policy/ });
    expect(within(dialog).getByText(`Version ${TERMS_VERSION}`)).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: /Your rights/ })).toBeTruthy();
    expect(
      (screen.getByRole('checkbox', { name: /privacy policy/, hidden: true }) as HTMLInputElement).checked,
    ).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('tells a non-owner that only the owner can accept', async () => {
    current = { ...account, accountRole: 'ADMIN', isOwner: false };
    await renderPage('/accept-agb', <AcceptAgbPage />);
    expect(screen.getByText(/Nur der Inhaber des Kontos/)).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('goes straight on when nothing is pending', async () => {
    current = { ...account, acceptedAgb: true, acceptedPrivacyPolicy: true };
    const { router } = await renderPage('/accept-agb', <AcceptAgbPage />, {
      at: '/accept-agb?redirect=/logs',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/logs'));
  });
});

describe('safeRedirect', () => {
  it.each([
    [null, '/'],
    ['', '/'],
    ['/billing?x=1#h', '/billing?x=1#h'],
    ['https://evil.example', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/accept-agb', '/'],
    ['/accept-agb?redirect=/x', '/'],
    ['/accept-agbx', '/accept-agbx'],
  ])('%s → %s', (value, expected) => expect(safeRedirect(value)).toBe(expected));
});

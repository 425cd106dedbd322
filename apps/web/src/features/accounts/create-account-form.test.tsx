import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { accountsRoutes } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { toast } from '@/ui/toast-store.ts';
import { CreateAccountForm } from './create-account-form.tsx';
import { renderPage } from '@/testing/render.tsx';

mockApi();
const invalidateSession = vi.fn(async () => {});
vi.mock('@/api/session.ts', () => ({ useInvalidateSession: () => invalidateSession }));

const created = testAccount('0b7f3c5e-3f57-4a43-9d55-6c1c5b0f4a11', {
  name: 'Acme AG',
  accountRole: 'OWNER',
  isOwner: true,
  acceptedAgb: false,
  acceptedPrivacyPolicy: false,
  createdAt: '2026-11-22T04:00:00.000Z',
});

beforeEach(() => {
  apiRequest.mockReset();
  invalidateSession.mockClear();
  watchToasts();
  sessionStorage.clear();
  localStorage.clear();
});

const nameField = () => screen.getByRole('textbox', { name: /Firmenname/ });
const submit = () => screen.getByRole('button', { name: 'Konto erstellen' });

describe('create-account form', () => {
  it('requires the company name: message on the field and the count toast', async () => {
    const user = userEvent.setup();
    await renderPage('/accounts/account', <CreateAccountForm />);
    await user.click(submit());
    expect(await screen.findByText('Dieses Feld ist erforderlich')).toBeTruthy();
    expect(shownToasts('error')).toContain('1 Feld ist nicht korrekt');
    expect(apiRequest).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(nameField());
  });

  it('refuses whitespace and more than 120 characters, on blur', async () => {
    const user = userEvent.setup();
    await renderPage('/accounts/account', <CreateAccountForm />);
    await user.type(nameField(), '   ');
    await user.tab();
    expect(await screen.findByText('Dieses Feld ist erforderlich')).toBeTruthy();
    await user.clear(nameField());
    await user.click(nameField());
    await user.paste('x'.repeat(121));
    expect(screen.getByText('Sie dürfen maximal 120 Zeichen eingeben')).toBeTruthy();
  });

  it('shows countries and languages by their localised names, Switzerland first', async () => {
    const user = userEvent.setup();
    await renderPage('/accounts/account', <CreateAccountForm />, { lng: 'fr' });
    expect(screen.getByRole('combobox', { name: /Pays/ }).textContent).toBe('Suisse');
    expect(screen.getByRole('combobox', { name: /Langue préférée/ }).textContent).toBe('Allemand');
    await user.click(screen.getByRole('combobox', { name: /Pays/ }));
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(250);
    expect(options[0]?.textContent).toBe('Suisse');
    expect(options.map((o) => o.textContent)).toContain('Allemagne');
  }, 20_000);

  it('creates the account with an Idempotency-Key, stores it and opens it', async () => {
    const user = userEvent.setup();
    apiRequest.mockResolvedValue({ data: created });
    const { router } = await renderPage('/accounts/account', <CreateAccountForm />);
    await user.type(nameField(), '  Acme AG ');
    await user.click(submit());
    await waitFor(() => expect(router.state.location.search).toBe(`?uuid=${created.uuid}`));
    expect(apiRequest).toHaveBeenCalledWith(accountsRoutes.createAccount, {
      body: { name: 'Acme AG', country: 'CH', preferredLanguage: 'de' },
      headers: { 'Idempotency-Key': expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    expect(sessionStorage.getItem('accountUuid')).toBe(created.uuid);
    expect(invalidateSession).toHaveBeenCalled();
    expect(shownToasts('success')).toContain('Das Konto Acme AG wurde erstellt.');
  });

  it('puts a 409 on the name field; a retry of the same values reuses the key, changed values get a new one', async () => {
    const user = userEvent.setup();
    apiRequest.mockRejectedValue(new ApiError(409, 'Account name already used', 'CONFLICT'));
    await renderPage('/accounts/account', <CreateAccountForm />);
    await user.type(nameField(), 'Muster AG');
    await user.click(submit());
    expect(await screen.findByText('Sie haben bereits ein Konto mit diesem Namen.')).toBeTruthy();
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(nameField());
    expect(toast.error).not.toHaveBeenCalled();

    await user.click(submit());
    await waitFor(() => expect(apiRequest).toHaveBeenCalledTimes(2));
    await user.type(nameField(), ' 2');
    await user.click(submit());
    await waitFor(() => expect(apiRequest).toHaveBeenCalledTimes(3));
    const keys = apiRequest.mock.calls.map(
      (call) => (call[1] as { headers: Record<string, string> }).headers['Idempotency-Key'],
    );
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('puts 422 field errors on the fields', async () => {
    const user = userEvent.setup();
    apiRequest.mockRejectedValue(new ApiError(422, 'Invalid', 'VALIDATION', { '/country': 'pattern' }));
    await renderPage('/accounts/account', <CreateAccountForm />);
    await user.type(nameField(), 'Acme');
    await user.click(submit());
    expect(await screen.findByText('Ungültiges Format')).toBeTruthy();
    expect(shownToasts('error')).toContain('1 Feld ist nicht korrekt');
  });
});

describe('default country', () => {
  it('follows a home-market browser region, else Switzerland', async () => {
    const { defaultCountry } = await import('@/forms/countries.ts');
    expect(defaultCountry(['de-AT', 'de'])).toBe('AT');
    expect(defaultCountry(['en-US'])).toBe('CH');
    expect(defaultCountry(['fr'])).toBe('CH');
    expect(defaultCountry(['it-IT'])).toBe('IT');
  });
});

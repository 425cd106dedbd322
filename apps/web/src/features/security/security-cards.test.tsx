import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { securityRoutes } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys } from '@/api/session.ts';
import { testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { emailChangeQuery } from './api.ts';
import { EmailCard } from './email-card.tsx';
import { PasswordCard } from './password-card.tsx';

mockApi();

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

async function renderCard() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  queryClient.setQueryData(queryKeys.me, testUser());
  await renderPage(
    '/settings/users',
    <PortalThemeProvider language="de" rowsPerPage="">
      <PasswordCard />
    </PortalThemeProvider>,
    { queryClient },
  );
  return within(await screen.findByRole('region', { name: 'Passwort' }));
}

async function submit(card: ReturnType<typeof within>, current: string, next: string, confirm = next) {
  const user = userEvent.setup();
  await user.type(card.getByLabelText(/^Aktuelles Passwort/), current);
  await user.type(card.getByLabelText(/^Neues Passwort\s*\*?$/), next);
  await user.type(card.getByLabelText(/^Neues Passwort bestätigen/), confirm);
  await user.click(card.getByRole('button', { name: 'Passwort ändern' }));
}

// Typing costs seconds when the machine is busy: more time than the default 5 s.
describe('password card', { timeout: 20_000 }, () => {
  it('shows the policy reason of the server in German on the new password', async () => {
    apiRequest.mockRejectedValue(
      new ApiError(422, 'newPassword is too easy to guess', 'VALIDATION_FAILED', {
        newPassword: 'tooWeak.keyboard',
      }),
    );
    const card = await renderCard();
    await submit(card, 'Muster-Demo-2026', 'qwertzuiopasdf');
    expect(
      await card.findByText(
        'Das Passwort ist zu leicht zu erraten: Nebeneinanderliegende Tasten sind schnell gefunden.',
      ),
    ).toBeTruthy();
    expect(card.getByLabelText(/^Neues Passwort\s*\*?$/).getAttribute('aria-invalid')).toBe('true');
  });

  it('says that the new password must differ from the current one', async () => {
    apiRequest.mockRejectedValue(
      new ApiError(422, 'newPassword must differ from the current password', 'VALIDATION_FAILED', {
        newPassword: 'sameAsCurrent',
      }),
    );
    const card = await renderCard();
    await submit(card, 'Kiesel-Ampel-Gurke-19', 'Kiesel-Ampel-Gurke-19');
    expect(await card.findByText('Das neue Passwort muss sich vom aktuellen unterscheiden.')).toBeTruthy();
  });

  it('says how long a lockout lasts', async () => {
    apiRequest.mockRejectedValue(
      new ApiError(429, 'locked', 'LOCKED', { currentPassword: 'locked', retryAfter: '120' }),
    );
    const card = await renderCard();
    await submit(card, 'falsch', 'Kiesel-Ampel-Gurke-19');
    expect(
      await card.findByText('Zu viele falsche Passwörter. Versuchen Sie es in 2 Minuten erneut.'),
    ).toBeTruthy();
  });

  it('asks for the same new password twice before sending anything', async () => {
    const card = await renderCard();
    await submit(card, 'Muster-Demo-2026', 'Kiesel-Ampel-Gurke-19', 'Kiesel-Ampel-Gurke-18');
    await waitFor(() =>
      expect(card.getByLabelText(/^Neues Passwort bestätigen/).getAttribute('aria-invalid')).toBe('true'),
    );
    expect(apiRequest).not.toHaveBeenCalled();
  });

  it('sends the current and the new password, empties the form and says so', async () => {
    apiRequest.mockResolvedValue(null);
    const card = await renderCard();
    await submit(card, 'Muster-Demo-2026', 'Kiesel-Ampel-Gurke-19');
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(securityRoutes.changePassword, {
        body: { currentPassword: 'Muster-Demo-2026', newPassword: 'Kiesel-Ampel-Gurke-19' },
      }),
    );
    await waitFor(() =>
      expect(shownToasts('success')).toEqual([
        'Ihr Passwort wurde geändert. Andere Sitzungen wurden beendet.',
      ]),
    );
    expect((card.getByLabelText(/^Aktuelles Passwort/) as HTMLInputElement).value).toBe('');
  });
});

describe('email card', { timeout: 20_000 }, () => {
  async function renderEmailCard(pending: { email: string; expiresAt: string } | null) {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
    });
    queryClient.setQueryData(queryKeys.me, testUser());
    queryClient.setQueryData(emailChangeQuery.queryKey, { pending });
    await renderPage(
      '/settings/users',
      <PortalThemeProvider language="de" rowsPerPage="">
        <EmailCard />
      </PortalThemeProvider>,
      { queryClient },
    );
    return within(await screen.findByRole('region', { name: 'E-Mail-Adresse' }));
  }

  it('answers every address alike: check its inbox, the change pending (no word on whether it is taken)', async () => {
    const pending = { email: 'jemand@example.org', expiresAt: '2026-11-24T10:00:00.000Z' };
    apiRequest.mockResolvedValue({ data: { pending } });
    const card = await renderEmailCard(null);
    const user = userEvent.setup();
    await user.type(card.getByLabelText(/^Neue E-Mail-Adresse/), 'jemand@example.org');
    await user.type(card.getByLabelText(/^Aktuelles Passwort/), 'Muster-Demo-2026');
    await user.click(card.getByRole('button', { name: 'Bestätigungslink senden' }));
    expect(await card.findByText(/Änderung zu jemand@example\.org wartet auf Bestätigung/)).toBeTruthy();
    await waitFor(() =>
      expect(shownToasts('success')).toEqual([
        'Prüfen Sie den Posteingang von jemand@example.org: Kann die Adresse verwendet werden, finden Sie dort den Bestätigungslink.',
      ]),
    );
  });

  it('shows a pending change and cancels it', async () => {
    apiRequest.mockResolvedValue(null);
    const card = await renderEmailCard({ email: 'neu@example.org', expiresAt: '2026-11-24T10:00:00.000Z' });
    expect(card.getByText(/Änderung zu neu@example\.org wartet auf Bestätigung/)).toBeTruthy();
    await userEvent.setup().click(card.getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(apiRequest).toHaveBeenCalledWith(securityRoutes.cancelEmailChange));
    await waitFor(() => expect(card.queryByText(/wartet auf Bestätigung/)).toBeNull());
    expect(shownToasts('success')).toEqual(['Die Änderung der E-Mail-Adresse wurde abgebrochen.']);
  });
});

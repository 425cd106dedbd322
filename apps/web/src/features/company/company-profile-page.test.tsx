import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  LOGO_MAX_BYTES,
  accountsRoutes,
  companyRoutes,
  usersRoutes,
  type Account,
  type CompanyProfile,
} from '@portal/contract';
import { accountExportRoutes } from '@portal/contract/account-export';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { testAccount, testCompanyProfile, testTwoFactorPolicy, testUser } from '@/testing/fixtures.ts';
import { accountQueryClient } from '@/testing/account-query-client.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import CompanyProfilePage from './company-profile-page.tsx';

mockApi({
  file: () => Promise.resolve({ blob: new Blob(['<svg/>'], { type: 'image/svg+xml' }), fileName: null }),
});

const PROFILE = testCompanyProfile();
const POLICY = testTwoFactorPolicy();
const PREVIEW = {
  data: [{ userUuid: 'u1', name: 'Emma Employee', email: 'employee@example.com', role: 'EMPLOYEE' }],
  meta: { total: 1, page: 1, pageSize: 10 },
};
/** The owner's export card: nothing asked for yet. */
const NO_EXPORT = { data: { latest: null, nextAllowedAt: null, provider: 'embedded' } };
/** Requests other than the two-factor and export cards' own reads. */
const profileCalls = () =>
  apiRequest.mock.calls.filter(
    ([route]) =>
      route !== companyRoutes.getTwoFactorPolicy &&
      route !== companyRoutes.previewTwoFactorPolicy &&
      route !== accountExportRoutes.getAccountExport,
  );

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

/** The page for the current account, as the guard leaves it; the profile request answers `profile`. */
async function renderCompany(account: Partial<Account> = {}, profile: CompanyProfile = PROFILE) {
  const current = testAccount('a1', { name: 'Muster AG', accountRole: 'ADMIN', ...account });
  const queryClient = accountQueryClient(current);
  apiRequest.mockImplementation((route) =>
    route === companyRoutes.getCompanyProfile
      ? Promise.resolve({ data: profile })
      : route === companyRoutes.getTwoFactorPolicy
        ? Promise.resolve({ data: POLICY })
        : route === companyRoutes.previewTwoFactorPolicy
          ? Promise.resolve(PREVIEW)
          : route === accountExportRoutes.getAccountExport
            ? Promise.resolve(NO_EXPORT)
            : Promise.reject(new Error('unexpected')),
  );
  const rendered = await renderPage(
    '/settings/company-profile',
    <ConfirmProvider>
      <CompanyProfilePage />
    </ConfirmProvider>,
    { queryClient },
  );
  await screen.findByRole('textbox', { name: /^Firmenname/ });
  return { ...rendered, account: current };
}

/** The change's answer, and the user's accounts the session refetches after it. */
function answer(route: unknown, body: unknown, accounts: Account[]) {
  apiRequest.mockImplementation((called) =>
    Promise.resolve(
      called === route
        ? body
        : called === usersRoutes.listMyAccounts
          ? { data: accounts }
          : { data: testUser() },
    ),
  );
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });
const save = () => screen.getByRole('button', { name: 'Speichern' });

describe('company profile page', () => {
  it('lets the owner switch the two-factor rule on after a confirmation that lists who is told', async () => {
    await renderCompany({ accountRole: 'OWNER', isOwner: true });
    const toggle = await screen.findByRole('switch', {
      name: 'Mitglieder müssen Zwei-Faktor-Authentifizierung verwenden',
    });
    apiRequest.mockImplementation((called) =>
      Promise.resolve(
        called === companyRoutes.previewTwoFactorPolicy
          ? PREVIEW
          : called === companyRoutes.updateTwoFactorPolicy
            ? {
                data: {
                  ...POLICY,
                  enabled: true,
                  enabledAt: '2026-11-23T10:00:00Z',
                  graceUntil: '2026-11-30T10:00:00Z',
                },
              }
            : called === usersRoutes.listMyAccounts
              ? { data: [] }
              : { data: testUser() },
      ),
    );
    fireEvent.click(toggle);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Emma Employee (employee@example.com)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Einschalten' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(companyRoutes.updateTwoFactorPolicy, {
        accountUuid: 'a1',
        body: { enabled: true, graceDays: 7 },
      }),
    );
  });

  it('shows the two-factor rule read-only to an admin', async () => {
    await renderCompany();
    const toggle = await screen.findByRole('switch', {
      name: 'Mitglieder müssen Zwei-Faktor-Authentifizierung verwenden',
    });
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    expect(
      screen.getByText('Nur die Inhaberin oder der Inhaber kann diese Einstellung ändern.'),
    ).toBeTruthy();
  });

  it(
    'shows the profile and refuses a UID with a wrong check digit on the field, in German',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderCompany();
      expect(field(/^UID-Nummer/)).toHaveProperty('value', 'CHE-123.456.788');
      await user.clear(field(/^UID-Nummer/));
      await user.type(field(/^UID-Nummer/), 'CHE-123.456.789');
      await user.click(save());
      expect(
        await screen.findByText('Die UID-Nummer ist ungültig: Die Prüfziffer stimmt nicht'),
      ).toBeTruthy();
      expect(field(/^UID-Nummer/).getAttribute('aria-invalid')).toBe('true');
      expect(profileCalls()).toHaveLength(1);
      await user.clear(field(/^UID-Nummer/));
      await user.type(field(/^UID-Nummer/), 'CHE 123');
      await user.tab();
      expect(await screen.findByText('Die UID-Nummer muss das Format CHE-123.456.789 haben')).toBeTruthy();
    },
  );

  it(
    'saves: a company abroad sends its VAT number and no UID; the answer fills the form',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderCompany();
      await user.click(screen.getByRole('combobox', { name: /^Land/ }));
      await user.click(await screen.findByRole('option', { name: 'Deutschland' }));
      expect(screen.queryByRole('textbox', { name: /^UID-Nummer/ })).toBeNull();
      // The postcode was fine for Switzerland; for Germany it is checked again once the form is submitted.
      await user.type(field(/^MWST-Nummer/), 'DE 123 456 789');
      await user.click(save());
      expect(await screen.findByText('Die Postleitzahl passt nicht zum gewählten Land')).toBeTruthy();
      await user.clear(field(/^PLZ/));
      await user.type(field(/^PLZ/), '80331');
      const saved = { ...PROFILE, country: 'DE', postcode: '80331', uid: null, vatNumber: 'DE123456789' };
      answer(companyRoutes.updateCompanyProfile, { data: saved }, [
        testAccount('a1', { name: 'Muster AG', accountRole: 'ADMIN', country: 'DE' }),
      ]);
      await user.click(save());
      await waitFor(() => expect(shownToasts('success')).toEqual(['Das Firmenprofil wurde gespeichert.']));
      expect(apiRequest).toHaveBeenCalledWith(companyRoutes.updateCompanyProfile, {
        accountUuid: 'a1',
        body: expect.objectContaining({
          country: 'DE',
          postcode: '80331',
          uid: null,
          vatNumber: 'DE 123 456 789',
        }),
      });
      expect(field(/^MWST-Nummer/)).toHaveProperty('value', 'DE123456789');
    },
  );

  it("puts the server's field errors on the fields", { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    await renderCompany();
    apiRequest.mockRejectedValue(
      new ApiError(422, 'Invalid company profile: uid', 'VALIDATION_FAILED', { uid: 'uidCheckDigit' }),
    );
    await user.clear(field(/^Ort/));
    await user.type(field(/^Ort/), 'Bern');
    await user.click(save());
    await waitFor(() => expect(field(/^UID-Nummer/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Die UID-Nummer ist ungültig: Die Prüfziffer stimmt nicht')).toBeTruthy();
  });

  it('refuses a logo over 1 MB before uploading it', async () => {
    await renderCompany();
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    const big = new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('Das Logo darf höchstens 1 MB gross sein')).toBeTruthy();
    expect(profileCalls()).toHaveLength(1);
  });

  it('shows the logo and removes it after confirmation', async () => {
    const user = userEvent.setup();
    const logo = {
      contentType: 'image/svg+xml',
      size: 200,
      fileName: 'logo.svg',
      updatedAt: '2026-11-01T10:00:00Z',
    } as const;
    await renderCompany({}, { ...PROFILE, logo });
    expect(await screen.findByRole('img', { name: 'Logo von Muster AG' })).toBeTruthy();
    apiRequest.mockResolvedValue({ data: PROFILE });
    await user.click(screen.getByRole('button', { name: 'Logo entfernen' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Logo entfernen' }),
    );
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(companyRoutes.deleteCompanyLogo, { accountUuid: 'a1' }),
    );
    expect(await screen.findByText('Noch kein Logo')).toBeTruthy();
  });

  it(
    'lets only the owner schedule the deletion, after typing the account name',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderCompany({ accountRole: 'OWNER', isOwner: true });
      await user.click(screen.getByRole('button', { name: 'Konto löschen …' }));
      const dialog = await screen.findByRole('dialog');
      const confirmButton = within(dialog).getByRole('button', { name: 'Löschung planen' });
      expect(confirmButton).toHaveProperty('disabled', true);
      await user.type(within(dialog).getByRole('textbox', { name: /Kontoname/ }), 'Muster');
      expect(confirmButton).toHaveProperty('disabled', true);
      await user.type(within(dialog).getByRole('textbox', { name: /Kontoname/ }), ' AG');
      const scheduled = testAccount('a1', {
        name: 'Muster AG',
        accountRole: 'OWNER',
        isOwner: true,
        availableUntil: '2026-12-22T10:00:00Z',
      });
      answer(accountsRoutes.deleteAccount, { data: scheduled, message: 'scheduled' }, [scheduled]);
      await user.click(confirmButton);
      await waitFor(() =>
        expect(apiRequest).toHaveBeenCalledWith(accountsRoutes.deleteAccount, { params: { id: 'a1' } }),
      );
      expect(await screen.findByText(/Dieses Konto wird nach dem 22\. Dezember 2026 gelöscht/)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Löschung abbrechen' })).toBeTruthy();
      expect(shownToasts('success')).toEqual(['Das Konto «Muster AG» wird in 30 Tagen gelöscht.']);
    },
  );

  it(
    "lets the owner ask for the account's data with the password, once a day, and download it when ready",
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderCompany({ accountRole: 'OWNER', isOwner: true });
      const card = (await screen.findByRole('heading', { name: 'Kontodaten exportieren' })).closest(
        'section',
      )!;
      const password = await within(card).findByLabelText(/Ihr aktuelles Passwort/);
      await user.type(password, 'geheim');
      apiRequest.mockImplementation((called) =>
        called === accountExportRoutes.requestAccountExport
          ? Promise.reject(
              new ApiError(429, 'too soon', 'DATA_EXPORT_TOO_SOON', { retryAt: '2026-11-29T10:00:00Z' }),
            )
          : Promise.resolve(NO_EXPORT),
      );
      await user.click(within(card).getByRole('button', { name: 'Kontodaten zusammenstellen' }));
      expect(
        await within(card).findByText('Die Kontodaten können einmal pro Tag zusammengestellt werden.'),
      ).toBeTruthy();
      expect(apiRequest).toHaveBeenCalledWith(accountExportRoutes.requestAccountExport, {
        accountUuid: 'a1',
        body: { password: 'geheim' },
      });

      const ready = {
        uuid: 'e1',
        state: 'ready',
        requestedAt: '2026-11-28T10:00:00Z',
        readyAt: '2026-11-28T10:01:00Z',
        expiresAt: '2026-12-05T10:01:00Z',
      };
      apiRequest.mockImplementation((called) =>
        called === accountExportRoutes.requestAccountExport
          ? Promise.resolve({ data: { ...ready, state: 'preparing', readyAt: null, expiresAt: null } })
          : Promise.resolve({
              data: { latest: ready, nextAllowedAt: '2026-11-29T10:00:00Z', provider: 'embedded' },
            }),
      );
      await user.click(within(card).getByRole('button', { name: 'Kontodaten zusammenstellen' }));
      expect(await within(card).findByText(/Die Kontodaten stehen bis am 5\. Dezember 2026/)).toBeTruthy();
      expect(within(card).getByRole('button', { name: 'ZIP herunterladen' })).toBeTruthy();
      expect(within(card).getByText(/Eine neue Zusammenstellung ist ab/)).toBeTruthy();
      expect(shownToasts('success')).toEqual(['Die Kontodaten werden zusammengestellt.']);
    },
  );

  it('tells an admin that only the owner can delete the account', async () => {
    await renderCompany();
    // The export of the account's data is the owner's only: an admin neither sees it nor loads it.
    expect(screen.queryByRole('heading', { name: 'Kontodaten exportieren' })).toBeNull();
    expect(apiRequest).not.toHaveBeenCalledWith(accountExportRoutes.getAccountExport, expect.anything());
    expect(screen.getByText(/Nur die Inhaberin oder der Inhaber des Kontos kann es löschen/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Konto löschen …' })).toBeNull();
  });
});

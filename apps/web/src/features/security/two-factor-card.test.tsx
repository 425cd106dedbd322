import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { securityRoutes } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { renderPage } from '@/testing/render.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

mockApi();

beforeEach(() => apiRequest.mockReset());

const overview = (over: { totpEnabled?: boolean; recoveryCodesLeft?: number } = {}) => ({
  totpEnabled: false,
  recoveryCodesLeft: 0,
  ...over,
});
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '2')}`);

describe('two-factor card', () => {
  it('warns when few recovery codes are left', async () => {
    await renderPage('/', <TwoFactorCard overview={overview({ totpEnabled: true, recoveryCodesLeft: 2 })} />);
    expect(screen.getByTestId('totp-state').textContent).toContain('Eingeschaltet');
    expect(screen.getByRole('alert').textContent).toContain('Nur noch 2 Wiederherstellungscodes übrig.');
    expect(screen.getByRole('button', { name: 'Deaktivieren' })).toBeTruthy();
  });

  it(
    'sets up the app: QR code with alt text, the key as text, a refused code, then the codes once saved',
    {
      timeout: 30_000,
    },
    async () => {
      apiRequest.mockImplementation(async (route: unknown) => {
        if (route === securityRoutes.startTotp) {
          return {
            data: {
              qrSvg: '<svg></svg>',
              secret: 'ABCDEFGHIJKLMNOP',
              issuer: 'Portal',
              label: 'o@example.com',
            },
          };
        }
        if (route === securityRoutes.confirmTotp && apiRequest.mock.calls.length === 2) {
          throw new ApiError(422, 'The code is wrong', 'INVALID_CODE', { code: 'invalid' });
        }
        return { data: { codes: CODES } };
      });
      const user = userEvent.setup();
      await renderPage('/', <TwoFactorCard overview={overview()} />);
      await user.click(screen.getByRole('button', { name: 'Einrichten' }));

      const dialog = await screen.findByRole('dialog', { name: 'Authenticator-App einrichten' });
      expect(
        await within(dialog).findByRole('img', { name: /QR-Code.*Portal \(o@example\.com\)/ }),
      ).toBeTruthy();
      expect(within(dialog).getByTestId('totp-secret').textContent).toContain('ABCD EFGH IJKL MNOP');
      await user.click(within(dialog).getByRole('button', { name: 'Weiter' }));

      const field = within(dialog).getByRole('textbox', { name: 'Code aus der Authenticator-App' });
      expect(document.activeElement).toBe(field);
      expect(field.getAttribute('autocomplete')).toBe('one-time-code');
      await user.type(field, '123456');
      await user.click(within(dialog).getByRole('button', { name: 'Bestätigen' }));
      expect(await within(dialog).findByText(/Der Code ist falsch oder abgelaufen/)).toBeTruthy();
      await user.click(within(dialog).getByRole('button', { name: 'Bestätigen' }));

      const list = await within(dialog).findByRole('list', { name: 'Wiederherstellungscodes' });
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(CODES);
      const done = within(dialog).getByRole('button', { name: 'Fertig' });
      expect((done as HTMLButtonElement).disabled).toBe(true);
      await user.click(within(dialog).getByRole('checkbox', { name: 'Ich habe die Codes gesichert' }));
      expect((done as HTMLButtonElement).disabled).toBe(false);
    },
  );

  it('asks the password to turn off, sends it, and closes', { timeout: 30_000 }, async () => {
    apiRequest.mockResolvedValue(undefined);
    const user = userEvent.setup();
    await renderPage(
      '/',
      <TwoFactorCard overview={overview({ totpEnabled: true, recoveryCodesLeft: 10 })} />,
    );
    expect(screen.getByTestId('recovery-left').textContent).toContain(
      'Noch 10 Wiederherstellungscodes übrig.',
    );
    await user.click(screen.getByRole('button', { name: 'Deaktivieren' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zwei-Faktor-Authentifizierung deaktivieren' });
    const submit = within(dialog).getByRole('button', { name: 'Deaktivieren' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Aktuelles Passwort'), 'Muster-Demo-2026');
    await user.click(submit);
    expect(apiRequest).toHaveBeenCalledWith(securityRoutes.disableTotp, {
      body: { password: 'Muster-Demo-2026' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

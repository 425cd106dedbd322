import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { createTestI18n } from '@/testing/i18n.ts';
import { COUNTDOWN_MS, IDLE_MS } from '../idle.ts';
import { preloadSessionExpiredDialog, SessionExpiry } from './session-expiry.tsx';

const endSessionInPlace = vi.fn();
const login = vi.fn(async () => {});
vi.mock('@/auth/auth.ts', () => ({
  endSessionInPlace: () => endSessionInPlace(),
  login: (...args: unknown[]) => login(...(args as [])),
}));

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('de');
  // The dialog is a lazy chunk, loaded ahead of the countdown (as the component does a minute before it): it then
  // renders at once within the fake-timer steps below.
  await preloadSessionExpiredDialog();
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  localStorage.clear();
  endSessionInPlace.mockClear();
  login.mockClear();
});

afterEach(() => vi.useRealTimers());

describe('session expiry modal', () => {
  it('counts down after 30 idle minutes, then ends the provider session once and offers a plain login', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <SessionExpiry />
      </I18nextProvider>,
    );
    await advance(IDLE_MS + 5_000);
    expect(screen.getByRole('dialog', { name: 'Sie werden wegen Inaktivität abgemeldet' })).toBeTruthy();
    expect(endSessionInPlace).not.toHaveBeenCalled();

    await advance(COUNTDOWN_MS);
    const dialog = screen.getByRole('dialog', { name: 'Abgemeldet' });
    expect(dialog.textContent).toContain('Sie wurden aus Sicherheitsgründen abgemeldet.');
    expect(endSessionInPlace).toHaveBeenCalledTimes(1);
    await advance(10_000);
    expect(endSessionInPlace).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    // A fresh login back to this page; the ended session makes the provider ask for the password.
    expect(login).toHaveBeenCalledWith();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { later } from '@/i18n/later.ts';
import { createTestI18n } from '@/testing/i18n.ts';
import { ToastViewport } from './toast.tsx';
import { dismissToast, getToasts, toast } from './toast-store.ts';

describe('toasts', () => {
  afterEach(() => getToasts().forEach((item) => dismissToast(item.id)));

  it('show a message in the language of the moment, also after a change while on screen', async () => {
    const i18n = await createTestI18n('de');
    render(
      <I18nextProvider i18n={i18n}>
        <ToastViewport />
      </I18nextProvider>,
    );
    act(() => {
      toast.success(later('shell.deletionCancelled'));
      toast.error('Server down');
    });
    expect(await screen.findByText('Die Löschung wurde abgebrochen.')).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('The deletion has been cancelled.')).toBeTruthy();
    expect(screen.queryByText('Die Löschung wurde abgebrochen.')).toBeNull();
    // A text that is not a message key (a server's sentence) is shown as it is.
    expect(screen.getByText('Server down')).toBeTruthy();
  });
});

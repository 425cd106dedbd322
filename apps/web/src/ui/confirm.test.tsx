import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createTestI18n } from '@/testing/i18n.ts';
import { ConfirmProvider, useConfirm, type ConfirmOptions } from './confirm.tsx';

function Asker({ options, answers }: { options: ConfirmOptions; answers: boolean[] }) {
  const confirm = useConfirm();
  return (
    <button type="button" onClick={() => void confirm(options).then((answer) => answers.push(answer))}>
      Ask
    </button>
  );
}

async function ask(options: ConfirmOptions) {
  const user = userEvent.setup();
  const answers: boolean[] = [];
  render(
    <I18nextProvider i18n={await createTestI18n('de')}>
      <ConfirmProvider>
        <Asker options={options} answers={answers} />
      </ConfirmProvider>
    </I18nextProvider>,
  );
  const opener = screen.getByRole('button', { name: 'Ask' });
  await user.tab();
  expect(document.activeElement).toBe(opener);
  await user.keyboard('{Enter}');
  // The dialog loads with the first confirmation: slow on a busy machine.
  const dialog = await screen.findByRole('dialog', { name: options.title }, { timeout: 10_000 });
  return { user, answers, opener, dialog };
}

describe('confirmation dialog', { timeout: 20_000 }, () => {
  it('starts a destructive one on cancel; Escape answers no and gives the focus back to what opened it', async () => {
    const { user, answers, opener } = await ask({
      title: 'Mitglied entfernen?',
      message: 'Emma verliert den Zugang.',
      confirmLabel: 'Entfernen',
      destructive: true,
    });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Abbrechen' })),
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers).toEqual([false]);
    expect(document.activeElement).toBe(opener);
  });

  it('starts another on its action, which Enter takes; Tab stays inside the dialog', async () => {
    const { user, answers, opener, dialog } = await ask({ title: 'Fortfahren?', message: 'Weiter?' });
    const action = screen.getByRole('button', { name: 'Bestätigen' });
    await waitFor(() => expect(document.activeElement).toBe(action));
    await user.tab();
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    action.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers).toEqual([true]);
    expect(document.activeElement).toBe(opener);
  });
});

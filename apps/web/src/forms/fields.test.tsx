import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import type { i18n } from 'i18next';
import { ApiError } from '@/api/errors.ts';
import { createTestI18n } from '@/testing/i18n.ts';
import { shownToasts } from '@/testing/toasts.ts';
import { FormCheckbox, FormSelect, FormTextField, RuleForm } from './fields.tsx';
import { useRuleForm, type RuleForm as RuleFormApi } from './use-rule-form.ts';

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock('@/ui/toast.tsx', () => ({ useToast: () => toast }));

interface Values {
  name: string;
  email: string;
  country: string;
  password: string;
  passwordRepeat: string;
  terms: boolean;
}

let i18n: i18n;
let api: RuleFormApi<Values>;
let onValid: (values: Values) => void | Promise<void>;

function TestForm() {
  const form = useRuleForm<Values>({
    defaultValues: { name: '', email: '', country: '', password: '', passwordRepeat: '', terms: false },
  });
  api = form;
  return (
    <RuleForm form={form} onSubmit={(values) => onValid(values)} aria-label="Test">
      <FormTextField name="name" label="Firmenname" rules="required|max:5" />
      <FormTextField name="email" label="E-Mail" rules="email" />
      <FormSelect
        name="country"
        label="Land"
        rules="required"
        options={[
          { value: 'CH', label: 'Schweiz' },
          { value: 'DE', label: 'Deutschland' },
        ]}
      />
      <FormTextField name="password" label="Passwort" type="password" />
      <FormTextField
        name="passwordRepeat"
        label="Passwort wiederholen"
        type="password"
        rules="confirmed:password"
      />
      <FormCheckbox name="terms" label="AGB akzeptieren" fieldLabel="AGB" rules="required" />
      <button type="submit">Speichern</button>
    </RuleForm>
  );
}

beforeAll(async () => {
  i18n = await createTestI18n('de');
});
beforeEach(() => {
  toast.error.mockReset();
  onValid = vi.fn();
});

function setup() {
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <TestForm />
    </I18nextProvider>,
  );
  return user;
}

const required = 'Dieses Feld ist erforderlich';

describe('rule form triggers', () => {
  it('does not validate while typing, validates on blur, and clears an error on the next change', async () => {
    const user = setup();
    const name = screen.getByRole('textbox', { name: /Firmenname/ });
    expect(name).toHaveProperty('required', true);
    await user.type(name, 'abcdefg');
    expect(screen.queryByText('Sie dürfen maximal 5 Zeichen eingeben')).toBeNull();
    await user.tab();
    expect(await screen.findByText('Sie dürfen maximal 5 Zeichen eingeben')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await user.click(name);
    await user.keyboard('{Backspace}{Backspace}');
    await waitFor(() => expect(screen.queryByText('Sie dürfen maximal 5 Zeichen eingeben')).toBeNull());
    expect(name.getAttribute('aria-invalid')).toBe('false');
  });

  it('Enter commits a text field', async () => {
    const user = setup();
    onValid = vi.fn();
    await user.type(screen.getByRole('textbox', { name: /E-Mail/ }), 'nope{Enter}');
    expect(await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')).toBeTruthy();
  });

  it('links the message to the field for assistive technology', async () => {
    const user = setup();
    const email = screen.getByRole('textbox', { name: /E-Mail/ });
    await user.type(email, 'x');
    await user.tab();
    const message = await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein');
    expect(email.getAttribute('aria-describedby')).toContain(message.id);
  });

  it('validates a select and a checkbox on change', async () => {
    const user = setup();
    await user.click(screen.getByRole('checkbox', { name: /AGB/ }));
    await user.click(screen.getByRole('checkbox', { name: /AGB/ }));
    expect(await screen.findByText(required)).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: /AGB/ }));
    await waitFor(() => expect(screen.queryByText(required)).toBeNull());

    await user.click(screen.getByRole('combobox', { name: /Land/ }));
    await user.click(await screen.findByRole('option', { name: 'Schweiz' }));
    expect(screen.queryByText(required)).toBeNull();
  });

  it('validates values set by code', async () => {
    setup();
    await act(async () => api.setValue('email', 'kein-mail'));
    expect(await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')).toBeTruthy();
    await act(async () => api.setValue('email', 'anna@example.com'));
    await waitFor(() =>
      expect(screen.queryByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')).toBeNull(),
    );
  });

  it('re-checks a confirming field when the other one changes', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Passwort'), 'geheim');
    await user.type(screen.getByLabelText('Passwort wiederholen'), 'geheim');
    await user.tab();
    expect(screen.queryByText('Die Eingaben stimmen nicht überein')).toBeNull();
    await user.type(screen.getByLabelText('Passwort'), '1');
    expect(await screen.findByText('Die Eingaben stimmen nicht überein')).toBeTruthy();
  });
});

describe('rule form submit', () => {
  it('an invalid submit shows the number of incorrect fields and does not submit', async () => {
    const user = setup();
    await user.type(screen.getByRole('textbox', { name: /E-Mail/ }), 'x');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(shownToasts('error', toast)).toContain('4 Felder sind nicht korrekt'));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getAllByText(required)).toHaveLength(3);
    // The first invalid field gets the focus.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Firmenname/ }));
  });

  it('uses the singular for one field', async () => {
    const user = setup();
    await user.type(screen.getByRole('textbox', { name: /Firmenname/ }), 'Muster');
    await user.click(screen.getByRole('combobox', { name: /Land/ }));
    await user.click(await screen.findByRole('option', { name: 'Schweiz' }));
    await user.click(screen.getByRole('checkbox', { name: /AGB/ }));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(shownToasts('error', toast)).toContain('1 Feld ist nicht korrekt'));
  });

  async function fillValid(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByRole('textbox', { name: /Firmenname/ }), 'Acme');
    await user.click(screen.getByRole('combobox', { name: /Land/ }));
    await user.click(await screen.findByRole('option', { name: 'Schweiz' }));
    await user.click(screen.getByRole('checkbox', { name: /AGB/ }));
  }

  it('submits valid values', async () => {
    const user = setup();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() =>
      expect(onValid).toHaveBeenCalledWith(
        expect.objectContaining({ name: 'Acme', country: 'CH', terms: true }),
      ),
    );
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('puts 422 field errors on the matching fields', async () => {
    const user = setup();
    onValid = () => {
      throw new ApiError(422, 'Validation failed', 'VALIDATION', {
        '/name': 'maxLength',
        email: 'Schon vergeben',
        other: 'x',
      });
    };
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Schon vergeben')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Firmenname/ }).getAttribute('aria-invalid')).toBe('true');
    expect(shownToasts('error', toast)).toContain('2 Felder sind nicht korrekt');
  });

  it('shows other errors as a toast', async () => {
    const user = setup();
    onValid = () => Promise.reject(new ApiError(500, 'Serverfehler', 'INTERNAL'));
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(shownToasts('error', toast)).toContain('Serverfehler'));
  });

  it('shows rule messages on screen in the new language after a change of language', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findAllByText(required)).toHaveLength(3);
    try {
      await act(() => i18n.changeLanguage('en'));
      expect(screen.getAllByText('This field is required')).toHaveLength(3);
      expect(screen.queryByText(required)).toBeNull();
    } finally {
      await act(() => i18n.changeLanguage('de'));
    }
  });

  it('translates a server rule key anew after a change of language; a server sentence stays as sent', async () => {
    const user = setup();
    onValid = () => {
      throw new ApiError(422, 'Validation failed', 'VALIDATION', {
        name: 'maxLength',
        email: 'Schon vergeben',
      });
    };
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Schon vergeben')).toBeTruthy();
    expect(screen.getByText(/maximal/)).toBeTruthy();
    try {
      await act(() => i18n.changeLanguage('en'));
      expect(screen.getByText(/at most/)).toBeTruthy();
      expect(screen.queryByText(/maximal/)).toBeNull();
      expect(screen.getByText('Schon vergeben')).toBeTruthy();
    } finally {
      await act(() => i18n.changeLanguage('de'));
    }
  });
});

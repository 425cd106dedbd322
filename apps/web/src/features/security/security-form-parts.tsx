import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import { ApiError } from '@/api/errors.ts';
import { FormTextField } from '@/forms/index.ts';

// Parts of the password and email forms of the security tab.

/**
 * The server's field error keys in the person's language: the lockout with its wait, a wrong current password, the
 * password policy's reason (`tooWeak.keyboard`) and the email form's reasons. Other errors pass unchanged.
 */
export function useSecurityFieldErrors(section: 'password' | 'email') {
  const { t, i18n } = useTranslation();
  return (error: unknown): unknown => {
    if (!(error instanceof ApiError) || !error.fields) return error;
    const { retryAfter, ...fields } = error.fields;
    const minutes = Math.max(1, Math.ceil(Number(retryAfter ?? 60) / 60));
    const text = (key: string) => {
      if (key === 'locked') return t('security.locked', { count: minutes });
      if (key === 'wrongPassword') return t('security.wrongPassword');
      // The policy's hint of a weak password (`tooWeak.keyboard`) has a text of its own.
      const own = key.startsWith('tooWeak.')
        ? `security.password.weakHints.${key.slice('tooWeak.'.length)}`
        : `security.${section}.errors.${key}`;
      return i18n.exists(own) ? t(own as 'security.wrongPassword') : key;
    };
    const translated = Object.fromEntries(Object.entries(fields).map(([name, key]) => [name, text(key)]));
    return new ApiError(error.status, error.message, error.code, translated);
  };
}

/** The current password, which both forms ask for to prove it is the person. */
export function CurrentPasswordField({ label }: { label: string }) {
  return (
    <FormTextField
      name="currentPassword"
      type="password"
      label={label}
      rules="required"
      autoComplete="current-password"
    />
  );
}

/** The form's submit button, disabled with "Wird gespeichert …" while the request runs. */
export function SubmitButton({ pending, label }: { pending: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Button type="submit" variant="contained" disabled={pending}>
        {pending ? t('forms.saving') : label}
      </Button>
    </div>
  );
}

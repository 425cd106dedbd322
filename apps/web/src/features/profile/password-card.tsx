import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ApiError } from '@/api/errors.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { useToast } from '@/ui/toast.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { useChangePassword } from './account-security-api.ts';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  newPassword_confirmation: string;
}

const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', newPassword_confirmation: '' };

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

/** The card "Passwort": the current password, a new one (the server's policy says why it refuses one) twice. */
export function PasswordCard() {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRuleForm<PasswordValues>({ defaultValues: EMPTY });
  const change = useChangePassword();
  const translate = useSecurityFieldErrors('password');

  const onSubmit = async ({ currentPassword, newPassword }: PasswordValues) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
    } catch (error) {
      throw translate(error);
    }
    form.reset(EMPTY);
    toast.success(t('security.password.changed'));
  };

  return (
    <SectionCard id="security-password" title={t('security.password.title')}>
      <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
        {t('security.password.intro')}
      </Typography>
      <RuleForm form={form} onSubmit={onSubmit} aria-label={t('security.password.title')}>
        <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
          <FormTextField
            name="currentPassword"
            type="password"
            label={t('security.password.current')}
            rules="required"
            autoComplete="current-password"
          />
          <FormTextField
            name="newPassword"
            type="password"
            label={t('security.password.new')}
            rules="required"
            autoComplete="new-password"
            helperText={t('security.password.newHelp')}
          />
          <FormTextField
            name="newPassword_confirmation"
            type="password"
            label={t('security.password.confirm')}
            rules="required|confirmed:newPassword"
            autoComplete="new-password"
          />
          <div>
            <Button type="submit" variant="contained" disabled={change.isPending}>
              {change.isPending ? t('forms.saving') : t('security.password.submit')}
            </Button>
          </div>
        </Stack>
      </RuleForm>
    </SectionCard>
  );
}

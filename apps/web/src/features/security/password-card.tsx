import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { useToast } from '@/ui/toast.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { useChangePassword } from './api.ts';
import { CurrentPasswordField, SubmitButton, useSecurityFieldErrors } from './security-form-parts.tsx';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  newPassword_confirmation: string;
}

const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', newPassword_confirmation: '' };

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
          <CurrentPasswordField label={t('security.password.current')} />
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
          <SubmitButton pending={change.isPending} label={t('security.password.submit')} />
        </Stack>
      </RuleForm>
    </SectionCard>
  );
}

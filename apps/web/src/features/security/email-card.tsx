import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EMAIL_MAX } from '@portal/contract';
import { useMe } from '@/api/session.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { useToast } from '@/ui/toast.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { emailChangeQuery, useCancelEmailChange, useRequestEmailChange } from './api.ts';
import { CurrentPasswordField, SubmitButton, useSecurityFieldErrors } from './security-form-parts.tsx';

interface EmailValues {
  newEmail: string;
  currentPassword: string;
}

const EMPTY: EmailValues = { newEmail: '', currentPassword: '' };

/**
 * The card "E-Mail-Adresse": the address the person signs in with, and a change to a new one — it applies once the
 * link mailed to the new address is opened; until then the card shows it as pending, with "cancel".
 */
export function EmailCard() {
  const { t } = useTranslation();
  const toast = useToast();
  const me = useMe();
  const state = useQuery(emailChangeQuery);
  const form = useRuleForm<EmailValues>({ defaultValues: EMPTY });
  const request = useRequestEmailChange();
  const cancel = useCancelEmailChange();
  const translate = useSecurityFieldErrors('email');
  const pending = state.data?.pending;

  const onSubmit = async (values: EmailValues) => {
    try {
      await request.mutateAsync({
        newEmail: values.newEmail.trim(),
        currentPassword: values.currentPassword,
      });
    } catch (error) {
      throw translate(error);
    }
    form.reset(EMPTY);
    toast.success(t('security.email.sent', { email: values.newEmail.trim() }));
  };

  return (
    <SectionCard id="security-email" title={t('security.email.title')}>
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <TextField
          label={t('security.email.current')}
          value={me.email}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        {pending && (
          <Alert
            severity="info"
            action={
              <Button color="inherit" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
                {t('security.email.cancel')}
              </Button>
            }
          >
            {t('security.email.pending', {
              email: pending.email,
              until: formatDateTime(pending.expiresAt),
            })}
          </Alert>
        )}
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('security.email.intro')}
        </Typography>
        <RuleForm form={form} onSubmit={onSubmit} aria-label={t('security.email.title')}>
          <Stack spacing={2.5}>
            <FormTextField
              name="newEmail"
              type="email"
              label={t('security.email.new')}
              rules={`required|email|max:${EMAIL_MAX}`}
              autoComplete="email"
            />
            <CurrentPasswordField label={t('security.email.password')} />
            <SubmitButton pending={request.isPending} label={t('security.email.submit')} />
          </Stack>
        </RuleForm>
      </Stack>
    </SectionCard>
  );
}

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { href } from '@/app/href.ts';
import { later } from '@/i18n/later.ts';
import { useLookUpAccount } from './api.ts';
import { FormTextField, RuleForm, useRuleForm, type RuleFunction } from '@/forms/index.ts';
import { useNavigate } from '@/routing/navigation-view.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface OpenAccountValues {
  accountId: string;
}

/**
 * Staff user roles open a customer's account by its ID, while the customer allows it on an open ticket:
 * `/?uuid=<id>` lets the guard load it with account role SUPPORT, and the server audits the access. The account
 * is looked up first, so an ID the server does not open is said on the field instead of a navigation that goes
 * nowhere. `notOpened` is an ID the guard could not open (a link): it is shown with the same message.
 */
export function OpenAccountForm({ notOpened }: { notOpened?: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lookUp = useLookUpAccount();
  const form = useRuleForm<OpenAccountValues>({ defaultValues: { accountId: notOpened ?? '' } });
  const { setError } = form;
  useEffect(() => {
    if (notOpened) setError('accountId', { type: 'server', message: later('accounts.openById.notFound') });
  }, [notOpened, setError]);
  const isUuid: RuleFunction = (value) =>
    UUID.test(String(value).trim()) || later('accounts.openById.invalid');

  const onSubmit = async ({ accountId }: OpenAccountValues) => {
    const uuid = accountId.trim().toLowerCase();
    if (!(await lookUp(uuid))) {
      const message = later('accounts.openById.notFound');
      form.setError('accountId', { type: 'server', message }, { shouldFocus: true });
      return;
    }
    await navigate(href('dashboard', undefined, { uuid }));
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
      <Typography variant="h6" component="h2">
        {t('accounts.openById.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('accounts.openById.intro')}
      </Typography>
      {/* The form is the landmark, named like its heading. */}
      <RuleForm form={form} onSubmit={onSubmit} aria-label={t('accounts.openById.title')}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
          <FormTextField
            name="accountId"
            label={t('accounts.openById.label')}
            rules={['required', isUuid]}
            helperText={t('accounts.openById.example')}
            autoComplete="off"
            size="small"
            sx={{ flex: '1 1 auto', width: '100%', maxWidth: 420 }}
            slotProps={{ htmlInput: { spellCheck: false, maxLength: 64 } }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={form.formState.isSubmitting}
            sx={{ flexShrink: 0, mt: { sm: '2px' } }}
          >
            {t('accounts.openById.submit')}
          </Button>
        </Stack>
      </RuleForm>
    </Paper>
  );
}

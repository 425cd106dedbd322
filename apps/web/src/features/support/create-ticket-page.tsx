import { useMemo } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_SEVERITIES,
  TICKET_BODY_MAX,
  TICKET_SUBJECT_MAX,
  type SupportCategory,
  type SupportSeverity,
} from '@portal/contract';
import { ApiError } from '@/api/client.ts';
import { useCurrentAccount, useCurrentAccountUuid } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { FormCheckbox, FormSelect, FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { Page } from '@/ui/page.tsx';
import { useCreateTicket } from './api.ts';
import { AttachmentsField, useChosenFiles } from './attachments-field.tsx';

interface TicketForm {
  category: SupportCategory | '';
  severity: SupportSeverity;
  subject: string;
  description: string;
  staffAccessConsent: boolean;
}

/** The state the success page reads: the number of the ticket just created (a direct visit has none). */
export interface CreatedTicketState {
  ticketNumber: number;
  ticketUuid: string;
}

const isCategory = (value: string | null): value is SupportCategory =>
  (SUPPORT_CATEGORIES as readonly string[]).includes(value ?? '');

/**
 * A new ticket: category, subject, description, severity, up to five attachments and the consent to staff
 * opening the account while the ticket is open. The category can be preset by the link (`?category=BILLING`).
 */
export default function CreateTicketPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const preset = searchParams.get('category');
  const form = useRuleForm<TicketForm>({
    defaultValues: {
      category: isCategory(preset) ? preset : '',
      severity: 'NORMAL',
      subject: '',
      description: '',
      staffAccessConsent: false,
    },
  });
  const attachments = useChosenFiles();
  const create = useCreateTicket(useCurrentAccountUuid());
  // Staff who opened the account do not write tickets in the customer's name (the server refuses it too).
  const staff = useCurrentAccount()?.accountRole === 'SUPPORT';

  const categories = useMemo(
    () => SUPPORT_CATEGORIES.map((value) => ({ value, label: t(`support.categories.${value}.label`) })),
    [t],
  );
  const severities = useMemo(
    () =>
      SUPPORT_SEVERITIES.map((value) => ({
        value,
        label: `${t(`support.severities.${value}`)} – ${t(`support.severityHelp.${value}`)}`,
      })),
    [t],
  );

  const onSubmit = async (values: TicketForm) => {
    if (attachments.problem) return;
    try {
      const { data } = await create.mutateAsync({
        category: values.category as SupportCategory,
        severity: values.severity,
        subject: values.subject.trim(),
        description: values.description.trim(),
        staffAccessConsent: values.staffAccessConsent,
        files: attachments.files,
      });
      const state: CreatedTicketState = { ticketNumber: data.ticket.number, ticketUuid: data.ticket.uuid };
      await navigate(href('support-ticket-success'), { state });
    } catch (error) {
      if (error instanceof ApiError && attachments.serverError(error)) {
        // Only the files were refused: the messages stand under them; other fields' errors go to the form.
        if (!Object.keys(error.fields ?? {}).some((field) => !field.startsWith('attachments'))) return;
      }
      throw error;
    }
  };

  const busy = create.isPending;
  return (
    <Page title={t('routes.supportTicket')}>
      <RuleForm form={form} onSubmit={onSubmit} aria-label={t('routes.supportTicket')}>
        <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
          {staff && <Alert severity="info">{t('support.staffReadOnly')}</Alert>}
          <Typography sx={{ color: 'text.secondary' }}>{t('support.form.intro')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('forms.requiredHint')}
          </Typography>
          <FormSelect
            name="category"
            label={t('support.form.category')}
            rules="required"
            options={categories}
          />
          <FormTextField
            name="subject"
            label={t('support.form.subject')}
            rules={`required|max:${TICKET_SUBJECT_MAX}`}
            helperText={t('support.form.subjectHelp')}
          />
          <FormTextField
            name="description"
            label={t('support.form.description')}
            rules={`required|max:${TICKET_BODY_MAX}`}
            helperText={t('support.form.descriptionHelp')}
            multiline
            minRows={6}
          />
          <FormSelect
            name="severity"
            label={t('support.form.severity')}
            rules="required"
            options={severities}
          />
          <AttachmentsField {...attachments.field} disabled={busy} />
          <FormCheckbox
            name="staffAccessConsent"
            label={t('support.form.consent')}
            fieldLabel={t('support.form.consent')}
            helperText={t('support.form.consentHelp')}
          />
          <Stack direction="row" spacing={1.5}>
            <Button type="submit" variant="contained" disabled={busy || staff}>
              {busy ? t('support.form.submitting') : t('support.form.submit')}
            </Button>
            <Button component={RouterLink} to={href('support')} disabled={busy}>
              {t('common.cancel')}
            </Button>
          </Stack>
        </Stack>
      </RuleForm>
    </Page>
  );
}

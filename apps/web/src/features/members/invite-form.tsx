import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { INVITATION_NOTE_MAX, normalizeEmail, type InviteBody } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { href } from '@/app/href.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { useInvite } from './api.ts';
import { EmailChipsField, type AddressProblem } from './email-chips-field.tsx';
import { RoleSelect } from './role-select.tsx';
import { useNavigate } from '@/routing/navigation-view.tsx';

interface Values {
  emails: string[];
  role: InviteBody['role'];
  note: string;
}

/**
 * The invitation form: addresses as chips and a role (EMPLOYEE or ADMIN), or for a digital coach (`coach`) the
 * role DC and a note to them. The server's refusals per address (already a member, already invited) mark the
 * address and name it; nobody is invited until every address is fine.
 */
export function InviteForm({ account, coach = false }: { account: string; coach?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const invite = useInvite(account);
  const [problems, setProblems] = useState<Record<string, AddressProblem>>({});
  const form = useRuleForm<Values>({
    defaultValues: { emails: [], role: coach ? 'DC' : 'EMPLOYEE', note: '' },
  });

  const onSubmit = async (values: Values) => {
    const emails = values.emails.map((email) => email.trim());
    try {
      await invite.mutateAsync({
        emails,
        role: values.role,
        ...(coach && values.note.trim() ? { note: values.note.trim() } : {}),
      });
      await navigate(href('settings-user-management'));
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
      const found: Record<string, AddressProblem> = {};
      for (const [path, code] of Object.entries(fields)) {
        const index = /^emails\.(\d+)$/.exec(path)?.[1];
        if (index !== undefined && emails[Number(index)]) {
          found[normalizeEmail(emails[Number(index)]!)] = code as AddressProblem;
        }
      }
      setProblems(found);
      if (Object.keys(found).length) {
        form.setError('emails', { type: 'server', message: '' }, { shouldFocus: true });
        toast.error(later('members.form.addressesRefused', { count: Object.keys(found).length }));
        return;
      }
      if (fields.note === 'noLinks') {
        form.setError(
          'note',
          { type: 'server', message: later('members.form.noteNoLinks') },
          { shouldFocus: true },
        );
        return;
      }
      throw error;
    }
  };

  return (
    <RuleForm
      form={form}
      onSubmit={onSubmit}
      aria-label={coach ? t('members.coachForm') : t('members.inviteForm')}
    >
      <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
        <EmailChipsField name="emails" label={t('members.form.emails')} problems={problems} />
        {coach ? (
          <FormTextField
            name="note"
            label={t('members.form.note')}
            helperText={t('members.form.noteHelp')}
            rules={`max:${INVITATION_NOTE_MAX}`}
            multiline
            minRows={3}
          />
        ) : (
          <RoleSelect />
        )}
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button type="submit" variant="contained" disabled={invite.isPending}>
            {invite.isPending ? t('members.form.sending') : t('members.form.send')}
          </Button>
          <Button onClick={() => void navigate(href('settings-user-management'))}>
            {t('members.form.cancel')}
          </Button>
        </Stack>
      </Stack>
    </RuleForm>
  );
}

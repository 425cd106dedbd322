import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INVITATION_VALID_DAYS, type Member, type MemberRole } from '@portal/contract';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { RuleForm, useRuleForm } from '@/forms/index.ts';
import { Page } from '@/ui/page.tsx';
import { memberQuery, useChangeRole } from './api.ts';
import { InviteForm } from './invite-form.tsx';
import { RoleSelect } from './role-select.tsx';

/** Why a member's role cannot be changed here, or null when it can. */
function lockedReason(member: Member): 'owner' | 'self' | 'coach' | null {
  if (member.role === 'OWNER') return 'owner';
  if (member.isSelf) return 'self';
  if (member.role === 'DC') return 'coach';
  return null;
}

function RoleForm({ account, member }: { account: string; member: Member }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const change = useChangeRole(account);
  const form = useRuleForm<{ role: MemberRole }>({ defaultValues: { role: member.role as MemberRole } });
  const locked = lockedReason(member);
  const back = () => navigate(href('settings-user-management'));

  return (
    <RuleForm
      form={form}
      aria-label={t('members.roleForm')}
      onSubmit={async ({ role }) => {
        await change.mutateAsync({ id: member.id, role });
        await back();
      }}
    >
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <TextField
          label={t('members.columns.name')}
          value={member.name || '—'}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <TextField
          label={t('members.columns.email')}
          value={member.email}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        {locked ? (
          <>
            <TextField
              label={t('members.columns.role')}
              value={t(`accounts.roles.${member.role}`)}
              slotProps={{ htmlInput: { readOnly: true } }}
            />
            <Alert severity="info">{t(`members.locked.${locked}`)}</Alert>
          </>
        ) : (
          <RoleSelect />
        )}
        <Stack direction="row" sx={{ gap: 1 }}>
          {!locked && (
            <Button type="submit" variant="contained" disabled={change.isPending || !form.formState.isDirty}>
              {change.isPending ? t('forms.saving') : t('forms.save')}
            </Button>
          )}
          <Button onClick={() => void back()}>{t('members.form.cancel')}</Button>
        </Stack>
      </Stack>
    </RuleForm>
  );
}

function EditMember({ account, id }: { account: string; id: string }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useQuery(memberQuery(account, id));
  if (isPending) return <CircularProgress aria-label={t('members.loading')} />;
  if (isError) return <Alert severity="error">{t('members.notFound')}</Alert>;
  return <RoleForm account={account} member={data} />;
}

/**
 * settings/user-management/user/{uuid?}: without uuid it invites people by email with a role; with the uuid of a
 * member it changes that member's role.
 */
export default function MemberFormPage() {
  const { t } = useTranslation();
  const { uuid } = useParams();
  const account = useCurrentAccountUuid();

  return (
    <Page title={uuid ? t('members.editTitle') : t('members.inviteTitle')}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        {uuid ? (
          <EditMember account={account} id={uuid} />
        ) : (
          <>
            <Typography sx={{ mb: 3, color: 'text.secondary' }}>
              {t('members.inviteIntro', { days: INVITATION_VALID_DAYS })}
            </Typography>
            <InviteForm account={account} />
          </>
        )}
      </Paper>
    </Page>
  );
}

import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LANGUAGES, USER_NAME_MAX, type Account, type Language, type User } from '@portal/contract';
import { myAccountsQuery, useCurrentAccount, useMe } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { LinkAlert, SectionCard } from '@/ui/section-card.tsx';
import { NotificationPreferences } from './notification-preferences.tsx';
import { useThemeMode } from '@/ui/theme.tsx';
import { LANGUAGE_NAMES, useLanguage, useLeaveAccount, useSaveName } from './api.ts';

const THEME_MODES = ['light', 'dark', 'auto'] as const;

function PersonalForm({ me }: { me: User }) {
  const { t } = useTranslation();
  const form = useRuleForm<{ name: string }>({ defaultValues: { name: me.name } });
  const save = useSaveName();

  const onSubmit = async ({ name }: { name: string }) => {
    const { data } = await save.mutateAsync(name.trim());
    form.reset({ name: data.name });
  };

  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('profile.personal')}>
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <FormTextField
          name="name"
          label={t('profile.name')}
          rules={`required|max:${USER_NAME_MAX}`}
          autoComplete="name"
        />
        <TextField
          label={t('profile.email')}
          value={me.email}
          helperText={t('profile.emailHelp')}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <div>
          <Button type="submit" variant="contained" disabled={save.isPending || !form.formState.isDirty}>
            {save.isPending ? t('forms.saving') : t('forms.save')}
          </Button>
        </div>
      </Stack>
    </RuleForm>
  );
}

/**
 * Leaving the current account: every member may, except its owner, who is shown the way to transfer the ownership
 * first (the server refuses the owner too).
 */
function LeaveAccount({ account }: { account: Account }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const leave = useLeaveAccount();
  const values = { account: account.name };
  const onLeave = async () => {
    const ok = await confirm({
      title: t('profile.leaveTitle', values),
      message: t('profile.leaveMessage', values),
      confirmLabel: t('profile.leaveConfirm'),
      destructive: true,
    });
    if (ok) leave.mutate(account);
  };
  return (
    <SectionCard id="profile-leave" title={t('profile.leaveHeading')}>
      {account.isOwner ? (
        <LinkAlert
          severity="info"
          to={href('settings-ownership-transfer')}
          label={t('profile.leaveOwnerAction')}
        >
          {t('profile.leaveOwner', values)}
        </LinkAlert>
      ) : (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography sx={{ color: 'text.secondary' }}>{t('profile.leaveText', values)}</Typography>
          <Button variant="outlined" color="error" onClick={() => void onLeave()} disabled={leave.isPending}>
            {t('profile.leaveAction')}
          </Button>
        </Stack>
      )}
    </SectionCard>
  );
}

/**
 * The "Profil" tab of /settings/users (app/user-settings-page.tsx): name, preferences (language, theme),
 * notifications and leaving the account.
 */
export function ProfileTab() {
  const { t } = useTranslation();
  const me = useMe();
  const { language, setLanguage } = useLanguage();
  const { mode, setMode } = useThemeMode();
  const current = useCurrentAccount();
  // Only an account the user has joined can be left (staff acting on a customer's account have none to leave).
  const { data: accounts = [] } = useQuery(myAccountsQuery);
  const member = accounts.find(
    (account) => account.uuid === current?.uuid && account.invitationStatus === 'ACCEPTED',
  );

  return (
    <Stack spacing={3}>
      <SectionCard id="profile-personal" title={t('profile.personal')}>
        <PersonalForm me={me} />
      </SectionCard>
      <SectionCard id="profile-preferences" title={t('profile.preferences')}>
        <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
          {t('profile.preferencesHelp')}
        </Typography>
        <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
          <TextField
            select
            label={t('profile.language')}
            value={language}
            onChange={(event) => setLanguage(event.target.value as Language)}
          >
            {LANGUAGES.map((code) => (
              <MenuItem key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('profile.theme')}
            value={mode}
            onChange={(event) => setMode(event.target.value as (typeof THEME_MODES)[number])}
          >
            {THEME_MODES.map((value) => (
              <MenuItem key={value} value={value}>
                {t(`profile.themes.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </SectionCard>
      <NotificationPreferences />
      {member && <LeaveAccount account={member} />}
    </Stack>
  );
}
